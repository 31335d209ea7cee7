// Preloaded into a compiled server under test (NODE_OPTIONS=--import=…): appends every answer
// the server writes, Koa's and the fast path's alike, to the file named by ANSWERS_FILE, one
// JSON line each, for the test to hold against the OpenAPI document (contract.ts). Plain
// JavaScript with Node's modules only: the server runs without tsx, as `npm start` runs it.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
import { writtenHeaders } from './written-headers.mjs';

const file = process.env.ANSWERS_FILE;

if (file) {
  subscribe('http.server.request.start', ({ request, response }) => {
    const chunks = [];
    const keep = (chunk, encoding) => {
      if (chunk && typeof chunk !== 'function')
        chunks.push(
          Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8'),
        );
    };
    const write = response.write.bind(response);
    const end = response.end.bind(response);
    response.write = (chunk, ...rest) => (keep(chunk, rest[0]), write(chunk, ...rest));
    response.end = (chunk, ...rest) => (keep(chunk, rest[0]), end(chunk, ...rest));
    response.on('finish', () => {
      const headers = writtenHeaders(response._header);
      // Only JSON bodies are held against a schema; the others are not kept.
      const json = /^application\/(.+\+)?json\b/i.test(headers['content-type'] ?? '');
      const answer = {
        method: request.method,
        url: request.url,
        status: response.statusCode,
        headers,
        body: json ? Buffer.concat(chunks).toString('base64') : '',
      };
      appendFileSync(file, `${JSON.stringify(answer)}\n`);
    });
  });
}
