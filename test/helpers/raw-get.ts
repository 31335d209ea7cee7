import { request } from 'node:http';

/** An answer with its header names as the wire carried them. */
export interface RawAnswer {
  status: number;
  /** Header names as the wire carried them, with their values. */
  raw: [string, string][];
  body: Buffer;
}

/** `GET base + path` by node:http, which keeps the case of header names (fetch does not). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) raw.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, raw, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether the fast path answered: Koa writes `Content-Type`, the fast path the names in lower case. Only tests look. */
export const byFastPath = (answer: RawAnswer): boolean =>
  answer.raw.some(([name]) => name === 'content-type' || name === 'etag');
