import autocannon from 'autocannon';

/** What one load run measured. */
export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** Answers whose status was not the expected one, and socket errors. */
  wrong: number;
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
  { connections, seconds }: { connections: number; seconds: number },
): Promise<Measure> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  let wrong = result.errors + result.timeouts;
  for (const [code, { count }] of Object.entries(codes)) if (Number(code) !== status) wrong += count;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, wrong };
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
