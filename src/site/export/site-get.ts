/** An answer of the server, as the export reads it. */
export interface ServerAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Asks the server (in the exporting process) for a path, with request headers. */
export type SiteGet = (path: string, headers?: Record<string, string>) => Promise<ServerAnswer>;

/** The body of a 200 for `path`; anything else stops the export, naming what answered. */
export async function bodyOf(get: SiteGet, path: string, headers?: Record<string, string>): Promise<Buffer> {
  const answer = await get(path, headers);
  if (answer.status !== 200)
    throw new Error(`the server answered ${answer.status} to GET ${path}: ${answer.body.toString('utf8', 0, 300)}`);
  return answer.body;
}
