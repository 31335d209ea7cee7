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
