import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { ChangeFeed, ChangedRow } from '../kernel/change-feed.ts';
import { errors } from '../kernel/errors.ts';
import { openEventStream, type EventStream } from './event-stream.ts';

/**
 * Server-sent event streams over a change feed (the console's inbox, the requests' queue, a device's requests): each
 * stream sends `ready` `{since}`, then what changed that its reader may see, each event's `id` its change number. A
 * reconnection with `Last-Event-ID` catches up first (`reset` when it missed too much: reload). A stream with an end
 * (an agent's token) ends with `expired`.
 *
 * The rows of each poll are shown once for every stream (`show` may query), then each stream keeps those it accepts;
 * a stream writes its events in the order of the polls, after its catch-up.
 */

export interface LiveEvent {
  event: string;
  data: unknown;
  id: number;
}

export interface CatchUp<Item> {
  items: Item[];
  /** False when there was more to catch up with than was read: the reader reloads instead. */
  complete: boolean;
}

export interface LiveStreamSpec<Item> {
  /** Who reads the stream, when `show` needs to know it (a device): the audiences of every open stream reach it. */
  audience?: string;
  accepts(item: Item): boolean;
  eventOf(item: Item): LiveEvent;
  /** With `Last-Event-ID`: what changed after it, read before the stream opens (an error answers as usual). */
  catchUp?: () => Promise<CatchUp<Item>>;
  /** When the stream ends with `expired` (milliseconds from now); none: it runs until either side closes it. */
  endsInMs?: number;
}

export interface LiveStreamsOptions {
  /** Streams one instance holds at most; beyond, 503 with Retry-After. */
  max: number;
  onError: (err: unknown) => void;
}

export class LiveStreams<Row extends ChangedRow, Item> {
  private readonly streams = new Set<EventStream>();
  private readonly audiences = new Map<string, number>();
  private readonly shown = new WeakMap<readonly Row[], Promise<Item[]>>();
  private readonly feed: ChangeFeed<Row>;
  private readonly show: (rows: readonly Row[], audiences: ReadonlySet<string>) => Item[] | Promise<Item[]>;
  private readonly options: LiveStreamsOptions;
  /** Set by close(): a stream still opening (its feed or catch-up being read) is refused rather than left open. */
  private closed = false;

  constructor(
    feed: ChangeFeed<Row>,
    show: (rows: readonly Row[], audiences: ReadonlySet<string>) => Item[] | Promise<Item[]>,
    options: LiveStreamsOptions,
  ) {
    this.feed = feed;
    this.show = show;
    this.options = options;
  }

  get open(): number {
    return this.streams.size;
  }

  /** A poll's rows as every stream sees them, worked out once. */
  private itemsOf(rows: readonly Row[]): Promise<Item[]> {
    let items = this.shown.get(rows);
    if (!items) {
      items = Promise.resolve().then(() => this.show(rows, new Set(this.audiences.keys())));
      this.shown.set(rows, items);
    }
    return items;
  }

  /** Answers the request with a stream (the reply is hijacked): 503 when the instance holds too many. */
  async serve(reply: FastifyReply, spec: LiveStreamSpec<Item>): Promise<void> {
    if (this.closed || this.streams.size >= this.options.max) throw errors.unavailable(10);
    const { audience } = spec;
    if (audience !== undefined) this.audiences.set(audience, (this.audiences.get(audience) ?? 0) + 1);
    const leave = () => {
      if (audience === undefined) return;
      const n = (this.audiences.get(audience) ?? 1) - 1;
      if (n > 0) this.audiences.set(audience, n);
      else this.audiences.delete(audience);
    };
    let stream: EventStream | null = null;
    // Polls wait for the stream to be open and its catch-up written, then write in their order.
    let opened!: () => void;
    let queue: Promise<void> = new Promise<void>((resolve) => (opened = resolve));
    const send = (items: readonly Item[]) => {
      for (const item of items) if (stream && !stream.ended && spec.accepts(item)) {
        const { event, data, id } = spec.eventOf(item);
        stream.send(event, data, id);
      }
    };
    let listening: { since: number; stop: () => void };
    try {
      listening = await this.feed.listen((rows) => {
        queue = queue.then(async () => {
          if (stream?.ended) return;
          try {
            send(await this.itemsOf(rows));
          } catch (err) {
            // The poll's rows could not be shown (the database went away): the reader reloads.
            this.options.onError(err);
            stream?.send('reset', {});
          }
        });
      });
    } catch (err) {
      leave();
      throw err;
    }
    let catchUp: CatchUp<Item> | null = null;
    try {
      if (spec.catchUp) catchUp = await spec.catchUp();
    } catch (err) {
      listening.stop();
      leave();
      throw err;
    }
    // The server began to close while this stream was opening: close() has ended the streams it knew, and this one
    // would hold the close for as long as its reader stays. 503: the reader reconnects to another instance.
    if (this.closed) {
      listening.stop();
      leave();
      throw errors.unavailable(10);
    }
    reply.hijack();
    let expiry: NodeJS.Timeout | undefined;
    const opening = openEventStream(reply.raw, {
      headers: reply.getHeaders(),
      onEnd: () => {
        listening.stop();
        leave();
        clearTimeout(expiry);
        this.streams.delete(opening);
      },
    });
    stream = opening;
    this.streams.add(opening);
    opening.send('ready', { since: listening.since }, listening.since);
    if (catchUp && !catchUp.complete) opening.send('reset', {});
    if (catchUp) send(catchUp.items);
    opened();
    if (spec.endsInMs !== undefined) {
      expiry = setTimeout(() => opening.end({ event: 'expired', data: {} }), Math.min(2 ** 31 - 1, Math.max(0, spec.endsInMs)));
    }
  }

  /** Ends every stream (the server closes: each reader reconnects elsewhere) and the feed. */
  close(): void {
    this.closed = true;
    for (const stream of this.streams) stream.end();
    this.feed.close();
  }
}

/** The `Last-Event-ID` header of a reconnecting reader, in a stream route's schema. */
export const LastEventIdHeaders = Type.Object({
  'last-event-id': Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The last `id` received.' })),
});

/** A stream route's 200 in the OpenAPI document. */
export const eventStreamResponse = {
  description: 'The stream (`text/event-stream`).',
  content: { 'text/event-stream': { schema: Type.String() } },
};
