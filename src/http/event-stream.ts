import type { ServerResponse } from 'node:http';

/**
 * A server-sent events stream (the WHATWG `text/event-stream` format) on a raw response: frames, a heartbeat that
 * keeps proxies from closing an idle connection, and an end. A client that does not read (its buffered frames pass
 * `maxBufferedBytes`) is cut off rather than held in memory: it reconnects with `Last-Event-ID` and catches up.
 */

export interface EventStreamOptions {
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  /** Called once, whichever side ends the stream. */
  onEnd: () => void;
  /** Headers already set on the reply (CORS, the request's id…), kept beside the stream's own. */
  headers?: Record<string, string | number | string[] | undefined>;
}

export interface EventStream {
  send(event: string, data: unknown, id?: number | string): void;
  end(finalEvent?: { event: string; data: unknown }): void;
  readonly ended: boolean;
}

export function openEventStream(raw: ServerResponse, options: EventStreamOptions): EventStream {
  const { heartbeatMs = 25_000, maxBufferedBytes = 1024 * 1024, onEnd, headers = {} } = options;
  const kept = Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && name !== 'content-length'));
  raw.writeHead(200, {
    ...kept,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // nginx and its kind buffer responses unless told not to: an event must reach the agent at once.
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  let ended = false;
  const heartbeat = setInterval(() => write(': ping\n\n'), heartbeatMs);
  const finish = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    onEnd();
  };
  raw.on('close', finish);
  function write(frame: string) {
    if (ended) return;
    if (raw.writableLength > maxBufferedBytes) {
      finish();
      raw.destroy();
      return;
    }
    raw.write(frame);
  }
  // Reconnect after 3 s when the connection drops (the browser's EventSource and the console's reader alike).
  write('retry: 3000\n\n');
  return {
    get ended() {
      return ended;
    },
    send(event, data, id) {
      write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end(finalEvent) {
      if (ended) return;
      if (finalEvent) write(`event: ${finalEvent.event}\ndata: ${JSON.stringify(finalEvent.data)}\n\n`);
      finish();
      raw.end();
    },
  };
}
