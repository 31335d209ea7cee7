/** A request as the worker hands it over: method, URL and a header getter (lower-case names). */
export interface SiteRequest {
  method: string;
  url: URL;
  header(name: string): string | undefined;
}

/** An answer as the worker sends it. */
export interface SiteAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
}
