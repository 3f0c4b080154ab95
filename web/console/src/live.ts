// Live updates: server-sent events streams (GET /chat/events for the inbox, GET /admin/requests/events for the
// requests), each read once however many screens listen to it.
//
// EventSource cannot send the Authorization header, so a stream is read with fetch and a ReadableStream. A stream
// ends on `expired` (the token's end): a new token, then a reconnection with Last-Event-ID, which replays what
// changed meanwhile. A dropped connection reconnects after the server's `retry` delay, doubled while it keeps
// failing (a 503: too many streams). A stream the server does not offer (404, or 400 where a route of the same path
// takes the rest as an id) or refuses to this agent (403) is not asked again while its listeners stay: they hear `unavailable` and work without live updates. No polling.
import { ApiError, openStream, renewToken } from './api.ts';

/**
 * What a stream says: `ready`, `reset` and its own events (`conversation`, `request`) with their data; and, from this
 * file, `unavailable` when the stream cannot be had (its listeners then work without it until it comes back).
 */
export type LiveEvent = { event: string; data: unknown };
type Listener = (event: LiveEvent) => void;

/** The inbox's stream, which `listen` reads. */
export const CHAT_EVENTS = '/chat/events';
/** The requests' stream (docs/console.md, Demandes). */
export const REQUEST_EVENTS = '/admin/requests/events';

/** Longest wait between two attempts of a stream that keeps failing. */
const MAX_RETRY_MS = 60_000;

interface Stream {
  listeners: Set<Listener>;
  /** Whether the stream is open (a listener that comes later hears `ready` at once) or cannot be had (`unavailable`). */
  state: 'connecting' | 'open' | 'unavailable';
  controller: AbortController | null;
  lastEventId: string | null;
  retryMs: number;
}

const streams = new Map<string, Stream>();

/** Listens to the stream at `path` while the returned function is not called; the stream runs while anyone listens. */
export function listenTo(path: string, listener: Listener): () => void {
  let stream = streams.get(path);
  if (!stream) {
    stream = { listeners: new Set(), state: 'connecting', controller: null, lastEventId: null, retryMs: 3000 };
    streams.set(path, stream);
  }
  const own = stream;
  own.listeners.add(listener);
  if (!own.controller) {
    own.state = 'connecting';
    void run(path, own);
  } else if (own.state !== 'connecting') {
    // The stream was there before this listener: it says where it stands, as it said to the others.
    const event = own.state === 'open' ? 'ready' : 'unavailable';
    queueMicrotask(() => own.listeners.has(listener) && listener({ event, data: null }));
  }
  return () => {
    own.listeners.delete(listener);
    if (own.listeners.size === 0) {
      own.controller?.abort();
      own.controller = null;
    }
  };
}

/** Listens to the inbox's events (GET /chat/events). */
export const listen = (listener: Listener): (() => void) => listenTo(CHAT_EVENTS, listener);

const emit = (stream: Stream, event: LiveEvent) => {
  if (event.event === 'ready') stream.state = 'open';
  else if (event.event === 'unavailable') stream.state = 'unavailable';
  for (const listener of [...stream.listeners]) listener(event);
};

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

async function run(path: string, stream: Stream): Promise<void> {
  const mine = new AbortController();
  stream.controller = mine;
  let failures = 0;
  while (stream.controller === mine && !mine.signal.aborted) {
    let outcome: 'expired' | 'dropped' = 'dropped';
    try {
      outcome = await readOnce(path, stream, mine.signal, () => (failures = 0));
    } catch (err) {
      if (mine.signal.aborted) return;
      if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429) {
        // Not offered here (a server without the route, an agent without the permission): asking again changes nothing.
        emit(stream, { event: 'unavailable', data: null });
        return;
      }
    }
    if (mine.signal.aborted) return;
    if (outcome === 'expired') {
      if (!(await renewToken())) return;
    } else {
      emit(stream, { event: 'unavailable', data: null });
      await wait(Math.min(stream.retryMs * 2 ** failures, MAX_RETRY_MS), mine.signal);
      failures++;
    }
  }
}

/** One connection: its events until it ends; `expired` when the server ended it for the token's end. */
async function readOnce(path: string, stream: Stream, signal: AbortSignal, onReady: () => void): Promise<'expired' | 'dropped'> {
  const response = await openStream(path, stream.lastEventId ? { 'last-event-id': stream.lastEventId } : {}, signal);
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
        else if (field === 'id') stream.lastEventId = text;
        else if (field === 'retry' && /^\d+$/.test(text)) stream.retryMs = Number(text);
      }
      if (event === 'expired') {
        void reader.cancel().catch(() => undefined);
        return 'expired';
      }
      if (event === 'message' && !data) continue;
      if (event === 'ready') onReady();
      let parsed: unknown = null;
      try {
        parsed = data ? JSON.parse(data) : null;
      } catch {
        continue;
      }
      emit(stream, { event, data: parsed });
    }
  }
}
