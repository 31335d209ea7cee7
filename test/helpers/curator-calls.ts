import type { TestServer } from './http.ts';

export type Json = Record<string, unknown>;
export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

/** `call(method, path, body?, headers?)` on `app` with `token`; a string body is sent as it is. */
export function caller(app: TestServer, token: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const response = await fetch(app.url + path, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Json) : {} };
  };
}

/** A GraphQL request to `app` by POST as `token` (undefined: anonymous): its status and answer. */
export async function graphqlCall(
  app: TestServer,
  token: string | undefined,
  query: string,
  variables: Json = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${app.url}/api/graphql`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/graphql-response+json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

/** The data of a GraphQL request that must succeed: a 200 without errors. */
export async function graphqlData(
  app: TestServer,
  token: string | undefined,
  query: string,
  variables: Json = {},
): Promise<Json> {
  const { status, body } = await graphqlCall(app, token, query, variables);
  if (status !== 200 || body.errors !== undefined)
    throw new Error(`GraphQL answered ${status}: ${JSON.stringify(body)}`);
  return body.data as Json;
}
