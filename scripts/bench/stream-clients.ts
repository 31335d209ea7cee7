import { request, type ClientRequest } from 'node:http';

/** Change streams held open, noting when each event reached each of them. */
export interface Streams {
  /** The moments (`performance.now()`) event `id` reached each stream, once all have it. */
  arrivals(id: string, timeoutMs?: number): Promise<number[]>;
  close(): void;
}

/**
 * `count` change streams opened on `urls` (taken in turn) after `since=now`, one socket each,
 * every event's arrival noted per stream: what the fan-out benchmark reads.
 *
 * @example
 * const streams = await openStreams(['http://127.0.0.1:3000'], 1000);
 * const times = await streams.arrivals(version); // when each stream got the write's event
 */
export async function openStreams(urls: readonly string[], count: number): Promise<Streams> {
  const requests: ClientRequest[] = [];
  const tails: string[] = new Array(count).fill('');
  const arrived = new Map<string, { times: number[]; got: number }>();
  const seen = (index: number, chunk: string) => {
    const now = performance.now();
    const text = tails[index]! + chunk;
    for (const [, id] of text.matchAll(/^id: (\S+)$/gm)) {
      const entry = arrived.get(id!) ?? { times: new Array<number>(count).fill(0), got: 0 };
      arrived.set(id!, entry);
      if (!entry.times[index]) [entry.times[index], entry.got] = [now, entry.got + 1];
    }
    // A partial last line is kept for the next chunk.
    tails[index] = text.slice(text.lastIndexOf('\n') + 1);
  };
  await Promise.all(
    Array.from(
      { length: count },
      (_, index) =>
        new Promise<void>((resolve, reject) => {
          const asked = request(
            `${urls[index % urls.length]}/api/v1/changes?since=now`,
            { agent: false, headers: { Accept: 'text/event-stream' } },
            (response) => {
              if (response.statusCode !== 200) return reject(new Error(`stream ${index}: ${response.statusCode}`));
              response.setEncoding('utf8').on('data', (chunk: string) => seen(index, chunk));
              resolve();
            },
          );
          asked.on('error', reject);
          asked.end();
          requests.push(asked);
        }),
    ),
  );
  return {
    arrivals: async (id, timeoutMs = 10_000) => {
      for (const deadline = performance.now() + timeoutMs; ;) {
        const entry = arrived.get(id);
        if (entry?.got === count) return entry.times;
        if (performance.now() > deadline)
          throw new Error(`${count - (entry?.got ?? 0)} of ${count} streams never got ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
    close: () => requests.forEach((asked) => asked.destroy()),
  };
}
