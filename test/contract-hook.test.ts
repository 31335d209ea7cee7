import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { contractProblems, type Answer } from './helpers/contract.ts';
import { loadDocument } from './helpers/openapi.ts';
import { startApp } from './helpers/http.ts';

const server = await startApp();
const { resolved } = await loadDocument(server);
await server.close();

const answer = (
  method: string,
  url: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Answer => ({
  method,
  url,
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});

test('the hook that holds every test answer against the document finds what it does not describe', () => {
  const wrong = [
    answer('GET', '/api/v1/actors', 200, [{ uuid: 5 }]),
    answer('GET', '/api/v1/actors/random', 200, { first_name: 'no uuid or href' }),
    answer('GET', '/api/v1/nowhere', 200, {}),
    answer('GET', '/api/v1/overview', 404, { code: 404 }),
    answer('GET', '/api/v1/actors', 200, [], { 'x-rate-limit-retry-after-seconds': '3' }),
  ];
  const problems = contractProblems(resolved, wrong);
  assert.ok(
    problems.some((p) => p.startsWith('GET /api/v1/actors → 200: /0/uuid')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith('GET /api/v1/actors/random → 200: /')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p === 'GET /api/v1/nowhere → 200: no operation of the document answers this'),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith('GET /api/v1/overview → 404: / must have required property')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('sends x-rate-limit-retry-after-seconds, not declared')),
    problems.join('\n'),
  );
});

test('a body of a media type the answer does not list is found, a JSON one or not', () => {
  const page = (status: number, url: string): Answer => ({
    method: 'GET',
    url,
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: Buffer.from('<p>hi</p>'),
  });
  assert.equal(
    contractProblems(resolved, [
      page(200, '/api/v1/actors'),
      page(404, '/api/v1/overview/00000000-0000-4000-8000-000000000000'),
    ]),
    [
      'GET /api/v1/actors → 200: a text/html body, and the answer lists application/json, text/csv',
      'GET /api/v1/overview/00000000-0000-4000-8000-000000000000 → 404: a text/html body, and the answer lists application/json',
    ],
  );
  assert.equal(
    contractProblems(resolved, [page(200, '/api/docs'), page(429, '/api/v1/actors')]),
    [],
    'the reference page, and the 429 page a browser gets',
  );
});

test('answers as the server gives them pass: a shaped record, an expanded link, an error of an unknown path', () => {
  const ok = [
    answer('GET', '/api/v1/actors?fields=first_name', 200, [
      {
        uuid: '4498b137-a2dc-4b70-9dcb-a4d84d57c5e0',
        href: '/api/v1/actors/4498b137-a2dc-4b70-9dcb-a4d84d57c5e0',
        first_name: 'Ana',
      },
    ]),
    answer('GET', '/api/v1/nowhere', 404, {
      code: 404,
      status: 'Not Found',
      method: 'GET',
      message: "No route 'x'",
      url: '/api/v1/nowhere',
      timestamps: '2026-11-24T10:00:00.000Z',
    }),
  ];
  assert.equal(contractProblems(resolved, ok), []);
});

test.run();
