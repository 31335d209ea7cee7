import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** How much of a request body nobody read is read and dropped, at most, before its connection closes. */
export interface LingerOptions {
  maxBytes: number;
  maxMs: number;
}

/** Whether the request announced a body (`Content-Length` above 0, or a chunked one). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads and drops what is left of `req`'s body; resolves true once it has all arrived, false
 * when it went past `maxBytes` or `maxMs` first.
 */
function drop(req: IncomingMessage, { maxBytes, maxMs }: LingerOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let bytes = 0;
    const done = (whole: boolean) => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', ended);
      req.off('close', ended);
      resolve(whole);
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) done(false);
    };
    const ended = () => done(true);
    const timer = setTimeout(() => done(false), maxMs);
    req.on('data', count);
    req.once('end', ended);
    req.once('close', ended);
    // A body parser that gave up may have left the request piped into a decoder, or paused.
    req.unpipe();
    req.resume();
  });
}

/**
 * Makes an answer given before its request's body was read whole (a 413, or a 415, 401, 404,
 * 429… that refuses a body unread) reach every client, as nginx's lingering close does.
 * Closing a connection while the client is still sending makes the kernel reset it, and a
 * client that writes its whole body before it reads (or whose unread answer the reset
 * discards) then sees EPIPE or ECONNRESET instead of the answer. So the answer is written at
 * once, whole, with `Connection: close`, and the connection is closed only after the rest of
 * the body has been read and dropped, or `maxBytes`/`maxMs` have passed (then it is cut).
 *
 * @example
 * createServer(lingerOnUnreadBodies(app.callback(), { maxBytes: 64 * 2 ** 20, maxMs: 5_000 }));
 */
export function lingerOnUnreadBodies(listener: RequestListener, options: LingerOptions): RequestListener {
  return (req, res) => {
    // Requests without a body (nearly all) pay for one header look-up.
    if (hasBody(req)) lingerOn(req, res, options);
    return listener(req, res);
  };
}

function lingerOn(req: IncomingMessage, res: ServerResponse, options: LingerOptions): void {
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (req.complete || req.destroyed) return end.apply(this, args as Parameters<typeof end>);
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    const [chunk, encoding] = args as [Buffer | string | undefined, BufferEncoding | undefined];
    if (!this.headersSent) this.setHeader('Connection', 'close');
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding ?? 'utf8');
    void drop(req, options).then((whole) => {
      (end as (callback?: () => void) => ServerResponse).call(this, callback);
      // Past the bounds: the client had the whole answer long before; stop reading from it.
      if (!whole) this.once('finish', () => req.socket.destroy());
    });
    return this;
  } as ServerResponse['end'];
}
