import { Agent, request } from 'node:http';

/**
 * Connections kept open between requests, as a browser or an SDK keeps them, and closed after 4 s
 * idle, before the server's 5 s: without a timeout of its own, Node's agent kept idle connections
 * however long, and a student writing every 2 s once picked one the server was closing.
 */
const agent = new Agent({ keepAlive: true, timeout: 4_000 });

/** A request as a bench client sends it. */
export interface HttpCall {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as it is, with its length. */
  body?: string;
}

/**
 * Sends one request with `node:http` and resolves with the answer's status and text. The
 * benches' clients (a paced writer, a class of students) send their requests this way, not with
 * `fetch`: they share the machine's two cores with the server, and a `fetch` cost them several
 * ms of CPU (undici's code, hardly warm at a few requests a second), which the server and the
 * load generator lost and which counted in latencies the server never caused.
 *
 * @example
 * const { status, text } = await httpCall('http://127.0.0.1:3000/api/v1/sandbox', { headers: { authorization: 'Bearer …' } });
 */
export function httpCall(
  url: string,
  { method = 'GET', headers = {}, body }: HttpCall = {},
): Promise<{
  status: number;
  text: string;
}> {
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, agent, headers: sized }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept connection the server closed as it was reused: the request never reached it (Node's advice: send it again).
      if (req.reusedSocket && error.code === 'ECONNRESET')
        httpCall(url, { method, headers, body }).then(resolve, reject);
      else reject(error);
    });
    req.end(body);
  });
}
