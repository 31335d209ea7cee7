import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { decodeCursor, type Cursor } from '../changes/cursor.ts';
import type { ChangeFeed } from '../changes/feed.ts';
import { keptBy, listed, type FeedReader } from '../changes/feed-answer.ts';
import type { FeedQuery } from '../changes/feed-query.ts';
import { MAX_LIMIT } from '../changes/feed-query.ts';
import { errorJson } from '../lib/error-json.ts';
import { HttpError } from '../lib/http-error.ts';
import type { StudentSummary } from '../served/sandbox-views.ts';

/** The bounds of the live streams (see docs/changes.md). */
export interface StreamOptions {
  /** Streams open at once in all. */
  total: number;
  perAddress: number;
  perAccount: number;
  /** A comment line at least this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** How long a stream may hold unsent changes while its reader reads nothing before it is cut off. */
  stalledMs: number;
}

/** What a stream reads: whose it is, and (asked anew each time) the reader's catalog and own changes. */
export interface StreamReader {
  address: string;
  account?: string;
  reader: () => FeedReader;
  /** An ADMIN's board (`include=sandboxes`): what it is told of a student whose sandbox changed. */
  student?: (account: string) => StudentSummary | undefined;
}

/** Bytes a stream holds unsent before it stops writing and waits for its reader (the feed keeps the rest). */
const BUFFER_BYTES = 64 * 1024;

interface Stream {
  out: PassThrough;
  /** The response it is piped to, closed if the reader never takes the last event. */
  res: Context['res'];
  cursor: Cursor;
  query: FeedQuery;
  who: StreamReader;
  /** Since when its reader has left changes unread (undefined: it keeps up). */
  stalledSince?: number;
  /** A write waits for the reader to drain. */
  waiting: boolean;
}

/** How many `key` holds in `counts`, plus `by`. */
const bump = (counts: Map<string, number>, key: string, by: number) => {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
};

/**
 * The live streams of the change feed (server-sent events): each starts after its cursor and
 * is sent every later change its reader may see, as the feed announces them. The feed itself is
 * the buffer: a stream writes until its socket holds `BUFFER_BYTES`, then waits for its reader
 * and goes on from its cursor, and is cut off (a last event saying why) after `stalledMs`
 * without reading. One timer sends the comment lines of every stream, and only while some are open.
 *
 * @example
 * const streams = new ChangeStreams(feed, {
 *   total: 2000,
 *   perAddress: 10,
 *   perAccount: 5,
 *   heartbeatMs: 15_000,
 *   stalledMs: 60_000,
 * });
 * streams.open(ctx, cursor, query, { address: ctx.ip, reader: () => ({ catalog, own: [], origin: '' }) });
 */
export class ChangeStreams {
  readonly #streams = new Set<Stream>();
  readonly #byAddress = new Map<string, number>();
  readonly #byAccount = new Map<string, number>();
  #heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: StreamOptions,
  ) {
    feed.subscribe((account) => {
      for (const stream of this.#streams) {
        if (account === undefined || account === stream.who.account) this.#send(stream);
        else if (stream.who.student) this.#tell(stream, stream.who.student(account));
      }
    });
  }

  /** How many streams are open. */
  get open(): number {
    return this.#streams.size;
  }

  /** Refuses a stream past a bound (a 429 for the caller's, a 503 for the server's), naming it. */
  admit(who: Pick<StreamReader, 'address' | 'account'>): void {
    const { total, perAddress, perAccount } = this.options;
    if (this.#streams.size >= total)
      throw new HttpError(
        503,
        `This server holds its most change streams already (${total}, CHANGE_STREAMS); poll GET /api/v1/changes, ` +
          `or retry later`,
        { 'Retry-After': '30' },
      );
    if ((this.#byAddress.get(who.address) ?? 0) >= perAddress)
      throw new HttpError(
        429,
        `Your address holds ${perAddress} change streams already (CHANGE_STREAMS_PER_ADDRESS); close one first`,
        { 'Retry-After': '30' },
      );
    if (who.account && (this.#byAccount.get(who.account) ?? 0) >= perAccount)
      throw new HttpError(
        429,
        `Your account holds ${perAccount} change streams already (CHANGE_STREAMS_PER_ACCOUNT); close one first`,
        { 'Retry-After': '30' },
      );
  }

  /** Answers `ctx` with a stream after `cursor` (checked and admitted before). */
  start(ctx: Context, cursor: Cursor, query: FeedQuery, who: StreamReader): void {
    const out = new PassThrough({ highWaterMark: BUFFER_BYTES });
    const stream: Stream = { out, res: ctx.res, cursor, query, who, waiting: false };
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
    ctx.body = out;
    this.#streams.add(stream);
    bump(this.#byAddress, who.address, 1);
    if (who.account) bump(this.#byAccount, who.account, 1);
    const closed = () => this.#forget(stream);
    ctx.res.once('close', closed);
    out.once('close', closed);
    out.write(`retry: 2000\n: changes after ${query.since ?? 'the first kept'}\n\n`);
    this.#send(stream);
    // Unref'd: the listening server keeps the process alive, not this timer.
    this.#heartbeat ??= setInterval(() => this.#beat(), this.options.heartbeatMs).unref();
  }

  /** Ends every stream with a last event (the server is stopping). */
  close(reason: string): void {
    for (const stream of this.#streams) this.#end(stream, 503, reason);
  }

  /** Writes every change after the stream's cursor, until its buffer is full. */
  #send(stream: Stream): void {
    if (stream.waiting || !this.#streams.has(stream)) return;
    let reader: FeedReader;
    try {
      reader = stream.who.reader();
      const check = this.feed.shared.check(stream.cursor);
      if (check)
        return this.#end(
          stream,
          410,
          `The stream cannot go on: ${check.gone}. Read the catalog again from scratch, then follow the feed anew`,
        );
    } catch (error) {
      return this.#end(stream, 503, (error as Error).message);
    }
    for (;;) {
      const page = this.feed.page(stream.cursor, MAX_LIMIT, reader.own, keptBy(stream.query));
      for (const change of listed(page, stream.query, reader)) {
        const room = stream.out.write(`id: ${change.cursor}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`);
        stream.cursor = decodeCursor(change.cursor) as Cursor;
        if (!room) return this.#wait(stream);
      }
      stream.cursor = decodeCursor(page.last) as Cursor;
      if (!page.more) {
        stream.stalledSince = undefined;
        return;
      }
    }
  }

  /** Tells a board what a student's sandbox holds now (an event with no id: a state, not a change to resume after). */
  #tell(stream: Stream, student: StudentSummary | undefined): void {
    if (!student || stream.out.writableLength >= BUFFER_BYTES) return;
    stream.out.write(`event: sandbox\ndata: ${JSON.stringify(student)}\n\n`);
  }

  /** Waits for the reader to take what is buffered, then goes on; cuts it off if it never does. */
  #wait(stream: Stream): void {
    stream.waiting = true;
    stream.stalledSince ??= Date.now();
    stream.out.once('drain', () => {
      stream.waiting = false;
      stream.stalledSince = undefined;
      this.#send(stream);
    });
  }

  /** The comment line of every stream that keeps up; a stream stalled too long is cut off. */
  #beat(): void {
    const now = Date.now();
    for (const stream of this.#streams) {
      if (stream.stalledSince !== undefined && now - stream.stalledSince > this.options.stalledMs)
        this.#end(
          stream,
          503,
          `The stream was cut off: its reader read nothing for ${Math.round(this.options.stalledMs / 1000)} s ` +
            `while changes waited; resume from the last event's id`,
        );
      else if (stream.out.writableLength < BUFFER_BYTES) stream.out.write(': keep-alive\n\n');
    }
  }

  /** A last event naming why the stream ends, in the one error shape, then the end. */
  #end(stream: Stream, status: number, message: string): void {
    const body = errorJson({ status, method: 'GET', message, url: '/api/v1/changes' });
    stream.out.end(`event: error\ndata: ${body}\n\n`);
    this.#forget(stream);
    // A reader that reads nothing would hold the socket: it is closed after a while.
    setTimeout(() => stream.res.destroy(), 5000).unref();
  }

  #forget(stream: Stream): void {
    if (!this.#streams.delete(stream)) return;
    bump(this.#byAddress, stream.who.address, -1);
    if (stream.who.account) bump(this.#byAccount, stream.who.account, -1);
    if (this.#streams.size === 0) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }
}
