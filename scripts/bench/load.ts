import autocannon from 'autocannon';

/** What one load run measured. */
export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** Answers whose status was not the expected one, and socket errors. */
  wrong: number;
  /** Microseconds of the server process's CPU time (user + system) per request answered, when measured. */
  cpuUs?: number;
}

/**
 * Drives `url` with autocannon for `seconds` over `connections` keep-alive connections. With
 * `server`, also reads the server process's CPU time before and after: what a request costs
 * the machine, which moves far less than req/s on a shared machine.
 *
 * @example
 * const { rps, p99, cpuUs } = await drive('http://127.0.0.1:3000/api/v1/actors', {}, 200, { connections: 50, seconds: 5 }, child);
 */
export async function drive(
  url: string,
  headers: Record<string, string>,
  status: number,
  { connections, seconds, method = 'GET', body }: { connections: number; seconds: number; method?: 'GET' | 'POST'; body?: string },
  server?: { cpuSeconds(): Promise<number> },
): Promise<Measure> {
  const before = await server?.cpuSeconds();
  const result = await autocannon({ url, headers, connections, duration: seconds, method, ...(body === undefined ? {} : { body }) });
  const after = await server?.cpuSeconds();
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  let wrong = result.errors + result.timeouts;
  for (const [code, { count }] of Object.entries(codes)) if (Number(code) !== status) wrong += count;
  const measure: Measure = { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, wrong };
  if (before !== undefined && after !== undefined && result.requests.total > 0) measure.cpuUs = ((after - before) * 1e6) / result.requests.total;
  return measure;
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
