// The inbox, live: one server-sent events stream (GET /chat/events) shared by every screen that listens.
//
// EventSource cannot send the Authorization header, so the stream is read with fetch and a ReadableStream. The
// stream ends on `expired` (the token's end): a new token, then a reconnection with Last-Event-ID, which replays what
// changed meanwhile. A dropped connection reconnects after the server's `retry` delay. No polling.
import { openStream, renewToken } from './api.ts';

export type LiveEvent = { event: 'ready' | 'reset' | 'conversation'; data: unknown };
type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
let controller: AbortController | null = null;
let lastEventId: string | null = null;
let retryMs = 3000;

/** Listens to the inbox's events while the returned function is not called; the stream runs while anyone listens. */
export function listen(listener: Listener): () => void {
  listeners.add(listener);
  if (!controller) void run();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      controller?.abort();
      controller = null;
    }
  };
}

const emit = (event: LiveEvent) => {
  for (const listener of [...listeners]) listener(event);
};

async function run(): Promise<void> {
  const mine = new AbortController();
  controller = mine;
  while (controller === mine && !mine.signal.aborted) {
    let outcome: 'expired' | 'dropped' = 'dropped';
    try {
      outcome = await readOnce(mine.signal);
    } catch {
      if (mine.signal.aborted) return;
    }
    if (mine.signal.aborted) return;
    if (outcome === 'expired') {
      if (!(await renewToken())) return;
    } else {
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}

/** One connection: its events until it ends; `expired` when the server ended it for the token's end. */
async function readOnce(signal: AbortSignal): Promise<'expired' | 'dropped'> {
  const response = await openStream('/chat/events', lastEventId ? { 'last-event-id': lastEventId } : {}, signal);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return 'dropped';
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data += (data ? '\n' : '') + text;
        else if (field === 'id') lastEventId = text;
        else if (field === 'retry' && /^\d+$/.test(text)) retryMs = Number(text);
      }
      if (event === 'expired') {
        void reader.cancel().catch(() => undefined);
        return 'expired';
      }
      if (event === 'ready' || event === 'reset' || event === 'conversation') emit({ event, data: data ? JSON.parse(data) : null });
    }
  }
}
