import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { schemaProblems, type Json } from './openapi.ts';
import { writtenHeaders } from './written-headers.mjs';

/** One answer as the server wrote it. */
export interface Answer {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Holds every answer `server` writes through Node's response object (Koa's and the fast
 * path's alike) against the (resolved) document as it finishes, keeping only the problems:
 * a test that sends thousands of requests does not keep thousands of bodies.
 *
 * @example
 * const problems = watchContract(server, resolved); // … requests …; problems() lists what the document does not describe
 */
export function watchContract(server: Server, doc: Json): () => string[] {
  const problems: string[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk && typeof chunk !== 'function')
        chunks.push(
          Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
        );
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => (
      keep(chunk, rest[0]),
      write(chunk, ...rest)
    )) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (keep(chunk, rest[0]), end(chunk, ...rest))) as typeof res.end;
    res.on('finish', () => {
      const headers = writtenHeaders((res as unknown as { _header?: string })._header);
      problems.push(
        ...contractProblems(doc, [
          {
            method: req.method ?? '',
            url: req.url ?? '',
            status: res.statusCode,
            headers,
            body: Buffer.concat(chunks),
          },
        ]),
      );
    });
  });
  return () => problems;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The document path an URL falls under, matched as the router matches (any case, a trailing
 * slash or none): the template with the most fixed text (`/random` before `{uuid}`).
 */
function templateOf(doc: Json, path: string): string | undefined {
  let best: { template: string; fixed: number } | undefined;
  for (const template of Object.keys(doc.paths as Json)) {
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`,
      'i',
    );
    if (!pattern.test(path)) continue;
    const fixed = template.replace(/\{\w+\}/g, '').length;
    if (!best || fixed > best.fixed) best = { template, fixed };
  }
  return best?.template;
}

function bodyOf(answer: Answer): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  if (coding === 'deflate') return inflateSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

/** The media types a (resolved) response description lists for its body. */
function mediaTypes(described: Json): string[] {
  return Object.keys((described.content ?? {}) as Json).map((type) => type.toLowerCase());
}

/** Whether a listed media type (`text/html`, or with a `*` wildcard: `text/*`) covers the type an answer was sent with. */
function covers(listed: string, type: string): boolean {
  const [kind, sub] = listed.split('/');
  return listed === type || (sub === '*' && (kind === '*' || type.startsWith(`${kind}/`)));
}

/**
 * What in `answers` the (resolved) OpenAPI document does not describe: a status its operation
 * does not list, a header the document knows that the answer's description does not declare,
 * a body of a media type the answer's description does not list, a JSON body its schema refuses. An answer to a path or method the document has not is held
 * against the one error shape. CORS preflights (OPTIONS) are the CORS middleware's, not the API's.
 *
 * @example
 * contractProblems(resolved, answers()); // ['GET /api/v1/actors?fields=x → 400: …']
 */
export function contractProblems(doc: Json, answers: readonly Answer[]): string[] {
  const known = Object.keys(doc.components.headers as Json).map((name) => name.toLowerCase());
  const problems: string[] = [];
  for (const answer of answers) {
    if (answer.method === 'OPTIONS') continue;
    const where = `${answer.method} ${answer.url} → ${answer.status}`;
    const path = answer.url.split('?')[0]!;
    const template = templateOf(doc, path);
    const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
    const operation =
      template && METHODS.includes(method) ? ((doc.paths as Json)[template][method] as Json | undefined) : undefined;
    let described: Json | undefined;
    if (operation) {
      const responses = operation.responses as Json;
      described = responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default;
      if (!described) {
        problems.push(`${where}: ${template} does not list ${answer.status}`);
        continue;
      }
      const declared = Object.keys((described.headers ?? {}) as Json).map((name) => name.toLowerCase());
      for (const name of known)
        if (name in answer.headers && !declared.includes(name))
          problems.push(`${where}: sends ${name}, not declared for this answer`);
    } else if (answer.status < 400) {
      problems.push(`${where}: no operation of the document answers this`);
      continue;
    }
    const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (answer.method === 'HEAD' || answer.body.length === 0) continue;
    // A Content-Type given to writeHead (the fast path's) is not among getHeaders(): such a body's type is not known here.
    if (described && type && !mediaTypes(described).some((listed) => covers(listed, type))) {
      problems.push(`${where}: a ${type} body, and the answer lists ${mediaTypes(described).join(', ') || 'no body'}`);
      continue;
    }
    if (!/^application\/(.+\+)?json$/.test(type)) continue;
    const schema = (operation ? described?.content?.[type]?.schema : doc.components.schemas.Error) as Json | undefined;
    if (!schema) {
      problems.push(`${where}: a ${type} body, and no schema for that media type`);
      continue;
    }
    for (const problem of schemaProblems(schema, JSON.parse(bodyOf(answer)))) problems.push(`${where}: ${problem}`);
  }
  return problems;
}
