import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

/** One server-sent event as a reader receives it. */
export interface ServerEvent {
  event: string;
  id: string | null;
  data: any;
}

/** Reads a text/event-stream as the console and the app do: fetch (headers as given), frames split on blank lines. */
export async function openEvents(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let done = false;
  const queue: ServerEvent[] = [];
  async function fill(): Promise<void> {
    const chunk = await reader.read();
    if (chunk.done) {
      done = true;
      return;
    }
    buffer += chunk.value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = frame.split('\n').filter((line) => !line.startsWith(':'));
      const field = (name: string) => fields.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
      const event = field('event');
      if (event !== null) queue.push({ event, id: field('id'), data: JSON.parse(field('data') ?? 'null') });
    }
  }
  return {
    response,
    /** The next event that satisfies `wanted`, skipping the others; fails if the stream ends first. */
    async next(wanted: (e: ServerEvent) => boolean = () => true): Promise<ServerEvent> {
      for (;;) {
        while (queue.length > 0) {
          const e = queue.shift()!;
          if (wanted(e)) return e;
        }
        if (done) assert.fail('the stream ended before the awaited event');
        await fill();
      }
    },
    /** Every event up to the end of the stream. */
    async rest(): Promise<ServerEvent[]> {
      while (!done) await fill();
      return queue.splice(0);
    },
    close: () => controller.abort(),
  };
}

export type Events = Awaited<ReturnType<typeof openEvents>>;

/** Listens on a free port of 127.0.0.1 (closed with the app): the server's base URL. */
export async function serve(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}
