/** Where incidents are written: the service's logger, or anything with its `warn`. */
export interface IncidentLog {
  warn(line: string): void;
}

/**
 * Logs an error nobody expected, once, with its stack and a fresh request id, and returns the
 * id for the answer to quote (`incidentMessage`), so a report from a client finds its line in
 * the log. The id is made here only, when something went wrong: a request that goes well pays
 * nothing for it. REST's error handler, the fast path and GraphQL all report through here.
 *
 * @example
 * const id = reportIncident(log, '500 on GET /api/v1/actors', error);
 * // logs "500 on GET /api/v1/actors (request id 5f0c2a9e1b7d): TypeError: …\n    at …"
 */
export function reportIncident(log: IncidentLog, what: string, error: unknown): string {
  // Web Crypto, in Node and in a static site's worker alike.
  const id = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  log.warn(`${what} (request id ${id}): ${(error as Error)?.stack ?? String(error)}`);
  return id;
}

/**
 * What a GraphQL client is told of an incident at a field: that it is ours, and its id, no details.
 *
 * @example
 * incidentMessage('5f0c2a9e1b7d'); // 'Internal error (request id 5f0c2a9e1b7d)'
 */
export function incidentMessage(id: string): string {
  return `Internal error (request id ${id})`;
}
