import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { json, startApp } from './helpers/http.ts';

// No costly operation may wait (GRAPHQL_COSTLY_QUEUE=0): one runs, any other costly one sent meanwhile is refused.
const server = await startApp({ GRAPHQL_COSTLY_QUEUE: '0' });
const endpoint = `${server.url}/api/graphql`;

type Answer = { data?: unknown; errors?: { message: string }[] };

/** Estimated at 4,051 (over the 1,000 that makes an operation costly, under the cost limit). */
const COSTLY = '{ seasons(size: 50) { items { title episodes { title season { title episodes { title } } } } } }';
const CHEAP = '{ overview { title } }';

async function post(
  query: string,
): Promise<{ status: number; retryAfter: string | null; type: string | null; body: Answer }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    type: response.headers.get('content-type'),
    body: await json<Answer>(response),
  };
}

test('costly operations beyond the queue are refused with 503, Retry-After and one GraphQL error; cheap ones and the one running are answered', async () => {
  // Sent together: the first to arrive takes the turn, and it yields to the event loop (which reads the others) before it runs.
  const answers = await Promise.all([
    ...Array.from({ length: 12 }, () => post(COSTLY)),
    ...Array.from({ length: 4 }, () => post(CHEAP)),
  ]);
  const costly = answers.slice(0, 12);
  const refused = costly.filter((answer) => answer.status === 503);
  assert.ok(refused.length > 0, 'some costly operation was refused');
  assert.ok(
    costly.some((answer) => answer.status === 200 && !answer.body.errors),
    'the costly operation holding the turn was answered',
  );
  assert.ok(
    costly.every((answer) => answer.status === 200 || answer.status === 503),
    costly.map((answer) => answer.status).join(', '),
  );
  for (const answer of refused) {
    assert.is(answer.retryAfter, '1');
    assert.match(answer.type ?? '', /^application\/json/);
    assert.equal(Object.keys(answer.body), ['errors']);
    assert.is(answer.body.errors!.length, 1);
    assert.match(
      answer.body.errors![0]!.message,
      /^Costly operations limit exceeded: 0 operations costing 1000 or more or new query texts of 2048 characters or more are already waiting/,
    );
  }
  for (const answer of answers.slice(12)) assert.is(answer.status, 200, 'cheap operations never wait for the turn');
});

test('large query texts never checked before take the same turns: beyond the queue, 503 before they are parsed', async () => {
  // Each a new text of about 9 KB (a comment counts up), refused by the field limit once it has its turn.
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, n) => post(`{ ${'overview { title } '.repeat(490)}} # ${n}`)),
  );
  assert.ok(
    answers.some((answer) => answer.status === 503 && answer.retryAfter === '1'),
    answers.map((answer) => answer.status).join(', '),
  );
  assert.ok(
    answers.some(
      (answer) => answer.status === 400 && /^Field limit of 1000 exceeded/.test(answer.body.errors?.[0]?.message ?? ''),
    ),
    'the text holding the turn was checked',
  );
  assert.ok(
    answers.every((answer) => answer.status === 400 || answer.status === 503),
    answers.map((answer) => answer.status).join(', '),
  );
});

test('the turn is handed back: once the others are answered, a costly operation runs', async () => {
  const answer = await post(COSTLY);
  assert.is(answer.status, 200);
  assert.not.ok(answer.body.errors);
});

test.after(() => server.close());
test.run();
