import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataFile, startApp, type TestServer } from './helpers/http.ts';
import { exampleUrls } from './helpers/example-urls.ts';
import { documentedRoutes, loadDocument, operation, schemaProblems, type Json } from './helpers/openapi.ts';

// Rate limits on (with room to spare) so their headers are on every answer too.
const server = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '100000', AUTH_RATE_LIMIT: '1000' });
const { resolved } = await loadDocument(server);
const KNOWN_HEADERS = Object.keys(resolved.components.headers);

/**
 * Sends a request and checks its answer against the document: the status is one the
 * operation lists, every header the document knows that the answer carries is declared for
 * that status, and a JSON body matches the declared schema. Returns the answer and its body.
 */
async function conforms(
  target: TestServer,
  method: string,
  template: string,
  path: string,
  init: RequestInit = {},
): Promise<{ response: Response; body: unknown }> {
  const response = await fetch(target.url + path, { method, redirect: 'manual', ...init });
  const where = `${method} ${path} → ${response.status}`;
  const answer = operation(resolved, method, template).responses[String(response.status)] as Json | undefined;
  assert.ok(answer, `${where} is not a documented answer`);
  for (const name of KNOWN_HEADERS) {
    if (response.headers.has(name)) assert.ok(name in (answer!.headers ?? {}), `${where} sends ${name}, undeclared`);
  }
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  // Any other answer is of a type its operation names, where it names types (pictures, pages and CSV).
  const declared = Object.keys((answer!.content ?? {}) as Json);
  const media = type.split(';')[0]!.trim();
  const named = [media, `${media.split('/')[0]}/*`, '*/*'].some((type) => declared.includes(type));
  if (declared.length) assert.ok(named, `${where} answers ${media}, not among ${declared.join(', ')}`);
  if (!type.startsWith('application/json')) return { response, body: text };
  const body = JSON.parse(text) as unknown;
  const schema = answer!.content?.['application/json']?.schema as Json | undefined;
  assert.ok(schema, `${where} has no JSON schema`);
  assert.equal(schemaProblems(schema!, body), [], where);
  return { response, body };
}

const firsts = new Map<string, Json>();
for (const name of ['overview', 'actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'])
  firsts.set(name, (await dataFile(`${name}.json`))[0]!);
const fill = await exampleUrls(resolved);

test('every GET of the document answers as documented, body and headers', async () => {
  const gets = documentedRoutes(resolved)
    .filter((r) => r.startsWith('GET '))
    .map((r) => r.slice(4));
  for (const template of gets) {
    const { response } = await conforms(server, 'GET', template, fill(template));
    assert.ok(response.status < 400, `GET ${fill(template)}: ${response.status}`);
    // A route is counted where the document lists a 429 for it, and then its answers carry its budget.
    const counted = '429' in operation(resolved, 'GET', template).responses;
    assert.is(
      response.headers.has('RateLimit-Policy'),
      counted,
      `GET ${fill(template)}: ${counted ? 'counted, and sends no RateLimit-Policy' : 'free, and sends RateLimit-Policy'}`,
    );
  }
});

test('lists with filters, sort, paging and a language conform, in every language', async () => {
  await conforms(
    server,
    'GET',
    '/api/v1/episodes',
    '/api/v1/episodes?language=pt-BR&duration=%3E100&sort=duration,desc&size=3&page=2',
  );
  await conforms(server, 'GET', '/api/v1/actors', '/api/v1/actors?gender=:1,2&nicknames=*a&size=50');
  for (const language of ['en-US', 'pt-BR', 'es-ES']) {
    for (const family of ['seasons', 'locations', 'games'])
      await conforms(server, 'GET', `/api/v1/${family}`, `/api/v1/${family}?language=${language}&size=50`);
    await conforms(server, 'GET', '/api/v1/overview', `/api/v1/overview?language=${language}`);
  }
});

test('every list in CSV conforms, asked by format=csv or by Accept, a page and a streamed whole list', async () => {
  for (const family of ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games']) {
    const csv = await conforms(server, 'GET', `/api/v1/${family}`, `/api/v1/${family}?format=csv&size=3&page=2`);
    assert.match(String(csv.response.headers.get('content-type')), 'text/csv', family);
    const whole = await conforms(server, 'GET', `/api/v1/${family}`, `/api/v1/${family}?format=csv&size=5000`);
    assert.is(whole.response.headers.get('etag'), null, `${family}: a streamed list has no ETag`);
    const accepted = await conforms(server, 'GET', `/api/v1/${family}`, `/api/v1/${family}?size=2`, {
      headers: { Accept: 'text/csv' },
    });
    assert.match(String(accepted.response.headers.get('vary')), 'Accept', family);
  }
  const refused = await conforms(server, 'GET', '/api/v1/actors', '/api/v1/actors?format=xlsx');
  assert.is(refused.response.status, 400);
});

test('error answers are documented for their operation and have the Error shape', async () => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  const cases: [string, string, number][] = [
    ['/api/v1/actors', '/api/v1/actors?frist_name=Ana', 400],
    ['/api/v1/actors', '/api/v1/actors?size=0', 400],
    ['/api/v1/episodes', '/api/v1/episodes?language=xx-XX', 400],
    ['/api/v1/actors/{uuid}', '/api/v1/actors/not-a-uuid', 400],
    ['/api/v1/actors/{uuid}', `/api/v1/actors/${unknown}`, 404],
    [
      '/api/v1/episodes/{uuid}/translations/{language}',
      `/api/v1/episodes/${firsts.get('episodes')!.uuid}/translations/xx-XX`,
      404,
    ],
    ['/api/v1/actors/{uuid}/socials/{social}', `/api/v1/actors/${firsts.get('actors')!.uuid}/socials/myspace`, 404],
    ['/api/v1/overview/{uuid}', `/api/v1/overview/${unknown}`, 404],
    ['/api/docs/{asset}', '/api/docs/index.html', 404],
  ];
  for (const [template, path, status] of cases)
    assert.is((await conforms(server, 'GET', template, path)).response.status, status, path);
  const refused = await conforms(server, 'GET', '/api/v1/actors', '/api/v1/actors', {
    headers: { Authorization: 'Bearer not.a.token' },
  });
  assert.is(refused.response.status, 401);
});

test('the account endpoints answer as documented', async () => {
  const post = (name: string, body: unknown, type = 'application/json') =>
    conforms(server, 'POST', `/api/v1/auth/${name}`, `/api/v1/auth/${name}`, {
      headers: { 'Content-Type': type },
      body: JSON.stringify(body),
    });
  const account = {
    first_name: 'Doc',
    last_name: 'Reader',
    username: 'docreader',
    email: 'doc@example.org',
    password: 'a documented passphrase',
  };
  assert.is((await post('register', account)).response.status, 201);
  assert.is((await post('register', account)).response.status, 409);
  assert.is((await post('register', { username: 'x' })).response.status, 400);
  assert.is((await post('register', account, 'text/plain')).response.status, 415);
  const credentials = { username: 'docreader', password: account.password };
  assert.is((await post('authenticate', credentials)).response.status, 200);
  assert.is((await post('authenticate', { ...credentials, password: 'wrong password' })).response.status, 401);
  assert.is((await post('delete', credentials)).response.status, 204);
});

test('a 429 is documented with its headers', async () => {
  const tight = await startApp({ RATE_LIMIT: 'on', RATE_LIMIT_ANONYMOUS: '1' });
  try {
    assert.is((await conforms(tight, 'GET', '/api/v1/seasons', '/api/v1/seasons')).response.status, 200);
    const over = await conforms(tight, 'GET', '/api/v1/seasons', '/api/v1/seasons');
    assert.is(over.response.status, 429);
    assert.ok(over.response.headers.has('Retry-After'));
  } finally {
    await tight.close();
  }
});

test.after(() => server.close());
test.run();
