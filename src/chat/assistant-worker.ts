import { answer, type AssistantInput } from './assistant.ts';
import { serveJobs } from './worker-pool.ts';

/** A worker thread of the assistant pool (assistant-pool.ts): the built-in assistant's answers, off the event loop. */
serveJobs((input: AssistantInput) => answer(input));
