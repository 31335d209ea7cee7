import type { TestServer } from './http.ts';

/** The running app, as the accounts tests call it. */
export type RunningApp = TestServer;

/** A response read once: status, headers and the body parsed as JSON when there is one. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs `body` as JSON (or as given when it is a string) with optional extra headers. */
export async function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readAnswer(response);
}

/** GETs `path`, with a bearer token when given. */
export async function get(url: string, path: string, token?: string): Promise<Answer> {
  return readAnswer(await fetch(`${url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} }));
}

/** Reads a fetch response into an Answer. */
export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {},
  };
}

/** A valid registration body; `n` makes the username and email unique. */
export function newUser(n: number | string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    first_name: 'Test',
    last_name: `User ${n}`,
    username: `user_${n}`,
    email: `user${n}@example.org`,
    password: `password of ${n}`,
    ...extra,
  };
}

/** Registers `newUser(n, extra)` and returns its token; fails the test on anything but 201. */
export async function registered(
  url: string,
  n: number | string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<string> {
  const { status, body } = await post(url, '/api/v1/auth/register', newUser(n, extra), headers);
  if (status !== 201) throw new Error(`registering ${n}: ${status} ${JSON.stringify(body)}`);
  return String(body.token);
}
