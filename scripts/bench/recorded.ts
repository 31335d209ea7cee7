import { request } from 'node:http';

/** One answer as the wire carried it, to be replayed byte for byte. */
export interface Recorded {
  path: string;
  /** Request headers that select this answer (e.g. `if-none-match`). */
  requestHeaders: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers a server writes per connection or per moment, not part of the answer itself. */
const PER_CONNECTION = ['date', 'connection', 'keep-alive', 'transfer-encoding'];

/**
 * Fetches `path` from `base` with exactly `requestHeaders` (no decoding, no added
 * Accept-Encoding, unlike `fetch`) and returns what came back.
 *
 * @example
 * const answer = await record('http://127.0.0.1:3000', '/api/v1/actors', {});
 */
export function record(
  base: string,
  path: string,
  requestHeaders: Record<string, string>,
  { method = 'GET', body }: { method?: string; body?: string } = {},
): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: requestHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (!PER_CONNECTION.includes(name) && value !== undefined)
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({
          path,
          requestHeaders,
          status: res.statusCode!,
          headers,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
