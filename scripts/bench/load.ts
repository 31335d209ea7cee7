import autocannon from 'autocannon';

/** What one load run measured. */
export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** Answers whose status was not the expected one, and socket errors. */
  wrong: number;
  /** Requests answered. */
  requests: number;
  /** Microseconds of the server process's CPU time (user + system) per request answered, when measured. */
  cpuUs?: number;
}

/**
 * Drives `url` with autocannon for `seconds` over `connections` keep-alive connections.
 *
 * @example
 * const { rps, p99 } = await drive('http://127.0.0.1:3000/api/v1/actors', {}, 200, { connections: 50, seconds: 5 });
 */
export async function drive(
  url: string,
  headers: Record<string, string>,
  status: number,
  {
    connections,
    seconds,
    method = 'GET',
    body,
  }: { connections: number; seconds: number; method?: 'GET' | 'POST'; body?: string },
): Promise<Measure> {
  const result = await autocannon({
    url,
    headers,
    connections,
    duration: seconds,
    method,
    ...(body === undefined ? {} : { body }),
  });
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  let wrong = result.errors + result.timeouts;
  for (const [code, { count }] of Object.entries(codes)) if (Number(code) !== status) wrong += count;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    wrong,
    requests: result.requests.total,
  };
}

/**
 * One run made of several slices of load on one server: req/s over them all, latencies
 * averaged by requests (slices of one distribution), and `cpuSeconds` of the server's CPU
 * time spread over every request answered.
 *
 * @example
 * combine([await drive(url, {}, 200, { connections: 50, seconds: 1 }), …], 4.2);
 */
export function combine(slices: Measure[], cpuSeconds: number): Measure {
  const requests = slices.reduce((sum, m) => sum + m.requests, 0);
  const weighted = (pick: (m: Measure) => number) =>
    requests ? slices.reduce((sum, m) => sum + pick(m) * m.requests, 0) / requests : 0;
  return {
    rps: slices.reduce((sum, m) => sum + m.rps, 0) / slices.length,
    p50: weighted((m) => m.p50),
    p99: weighted((m) => m.p99),
    wrong: slices.reduce((sum, m) => sum + m.wrong, 0),
    requests,
    ...(requests ? { cpuUs: (cpuSeconds * 1e6) / requests } : {}),
  };
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
