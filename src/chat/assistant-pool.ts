import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { errors } from '../kernel/errors.ts';
import type { AssistantInput, AssistantReply } from './assistant.ts';
import { createWorkerPool, PoolBusyError, WorkerFailedError, type WorkerPool } from '../kernel/worker-pool.ts';

/**
 * The built-in assistant runs in CHAT_WORKERS worker threads: its text matching costs milliseconds per message,
 * which on the event loop would be taken from every other request. The city's data is read from the database on
 * the main thread and handed to a worker with the message.
 */

/** An answer takes a few milliseconds; one still running after this is stuck, and its worker is replaced. */
export const ASSISTANT_JOB_TIMEOUT_MS = 5000;
/** Retry-After of a 503 when every worker is busy and the queue full: the queue drains in well under this. */
export const ASSISTANT_RETRY_AFTER_S = 2;

export type AssistantPool = WorkerPool<AssistantInput, AssistantReply>;

export function createAssistantPool(config: Config, log: FastifyBaseLogger): AssistantPool {
  return createWorkerPool<AssistantInput, AssistantReply>({
    file: new URL('./assistant-worker.ts', import.meta.url),
    size: config.chatWorkers,
    maxQueue: config.chatQueueMax,
    jobTimeoutMs: ASSISTANT_JOB_TIMEOUT_MS,
    onWorkerStart: (threadId) => log.info({ threadId }, 'chat assistant worker started'),
    onWorkerFailure: (err, threadId) => log.error({ err, threadId }, 'chat assistant worker failed: it is replaced'),
  });
}

/** The built-in assistant's answer from a worker; a full queue or a failed worker is the contract's 503. */
export async function answerInWorker(pool: AssistantPool, input: AssistantInput): Promise<AssistantReply> {
  try {
    return await pool.run(input);
  } catch (err) {
    if (err instanceof PoolBusyError) throw errors.assistantBusy(ASSISTANT_RETRY_AFTER_S);
    if (err instanceof WorkerFailedError) throw errors.assistantFailed(ASSISTANT_RETRY_AFTER_S);
    throw err;
  }
}
