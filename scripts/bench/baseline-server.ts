// The ceiling: a bare node:http server that answers the recorded URLs with the recorded bytes.
// Usage: node --import tsx scripts/bench/baseline-server.ts answers.json
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Recorded } from './recorded.ts';

const answers = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Recorded[];
const byRequest = new Map(
  answers.map((a) => [
    `${a.path} ${a.requestHeaders['if-none-match'] ?? ''}`,
    { ...a, bytes: Buffer.from(a.body, 'base64') },
  ]),
);

const server = createServer((req, res) => {
  const answer = byRequest.get(`${req.url} ${req.headers['if-none-match'] ?? ''}`);
  if (!answer) {
    res.writeHead(500).end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.bytes);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`listening on http://127.0.0.1:${port}`);
});
