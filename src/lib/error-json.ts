import { statusText } from './status-text.ts';

/** What an error answer says: `{code, status, method, message, url, timestamps, params?}`. */
export interface ErrorFields {
  status: number;
  method: string;
  message: string;
  url: string;
  params?: unknown;
  /** The id under which an unexpected error (500) was logged. */
  request_id?: string;
}

/**
 * The one error body, as JSON text: the server's, and a static site's worker's.
 *
 * @example
 * errorJson({ status: 404, method: 'GET', message: "Actor '…' not found", url: '/api/v1/actors/…' });
 * // '{"code":404,"status":"Not Found","method":"GET","message":"Actor …","url":…,"timestamps":"2026-…"}'
 */
export function errorJson({ status, method, message, url, params, request_id }: ErrorFields): string {
  const body: Record<string, unknown> = {
    code: status,
    status: statusText(status) ?? 'Error',
    method,
    message,
    url,
    timestamps: new Date().toISOString(),
  };
  if (params !== undefined) body.params = params;
  if (request_id !== undefined) body.request_id = request_id;
  return JSON.stringify(body);
}
