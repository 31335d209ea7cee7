import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Child } from './child.ts';
import { httpCall } from './http-call.ts';
import { drive, median, type Measure } from './load.ts';
import { heapAfterGc, type HeapFigures } from './soak.ts';
import { RAISED, sliced, startOurs } from './throughput.ts';

export interface ClassroomOptions {
  /** Students who write, each to a sandbox of their own, all at once. */
  sandboxes: number;
  /** Writes each of them makes, one after another. */
  writes: number;
  /** Seconds between one student's writes in the paced row (each student starts at a random moment within them). */
  pace: number;
  /** Rounds of each pair of reads, alternated; each `seconds` one-second slices per side. */
  rounds: number;
  seconds: number;
  connections: number;
  dataDir: string;
  progress: (line: string) => void;
}

/** One pair of reads measured side by side, round after round: `subject` against `reference`. */
export interface ReadPair {
  subject: Measure[];
  reference: Measure[];
  /** median(subject req/s) ÷ median(reference req/s). */
  ratio: number;
}

export interface ClassroomFigures {
  sandboxes: number;
  writes: number;
  /** Latency of every sandbox write, from the request to the whole answer, in ms, sorted. */
  latencies: number[];
  /** The same for `writes` writes of one student alone, before the others write (sorted). */
  alone: number[];
  /** The same students writing as many writes again at a human pace, one each `pace` seconds: each write's latency (sorted) and server CPU. */
  paced: { latencies: number[]; cpuMs: number };
  /** Server CPU time (every thread) per sandbox write, in ms. */
  cpuMs: number;
  /** Memory after a collection, before the sandboxes' writes and after them. */
  before: HeapFigures;
  after: HeapFigures;
  /** What the server counts against `SANDBOX_MB` for these writes (its estimate), in bytes. */
  estimatedBytes: number;
  /** A sandboxed student's read by uuid against a signed-in student's without a sandbox (server S). */
  sandboxed: ReadPair;
  /** An anonymous read by uuid on S against the same on B, a server with no sandbox. */
  anonymous: ReadPair;
}

/** What the server counts per write against `SANDBOX_MB` (src/served/sandboxes.ts): its changes' JSON × 4, and 256 KB a sandbox. */
const ESTIMATE = { perJsonByte: 4, perSandbox: 256 * 1024 };

/** Classroom mode as `npm run classroom` runs it, the budgets raised so that nothing is refused (as the other benches). */
const CLASSROOM_ENV = {
  ...RAISED,
  CLASSROOM: 'on',
  RATE_LIMIT_DEV: '1000000000',
  LOG_LEVEL: 'warn',
  // Only registration hashes passwords: a low cost keeps 32 sign-ups quick and their 128 MiB buffers out of the RSS.
  SCRYPT_N: '1024',
};
/**
 * heap-probe.mjs collects garbage and reports memory on SIGUSR2 (as bench:soak reads it). Both
 * servers keep a young generation of the size V8 grows it to under this load (16 MB semi-spaces):
 * left to V8, a collection at a quiet moment shrank it to 1 MB, and S's grew back more slowly than
 * B's (after 10 s of reads, 1 MB against 16 or 32), so S scavenged 2.6 times as often. In one
 * experiment S ÷ B was 0.87 to 1.15 left to V8, 0.94 to 1.00 held alike. It also keeps the RSS
 * figures from moving with the young generation's size at each collection.
 */
const PROBE = ['--min-semi-space-size=16', '--expose-gc', '--import', './scripts/bench/heap-probe.mjs'];

const origin = (child: Child) => new URL(child.url).origin;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(base: string, method: string, path: string, token: string, body?: unknown): Promise<unknown> {
  const { status, text } = await httpCall(base + path, {
    method,
    headers: { ...(token ? bearer(token) : {}), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Registers student `n` (as docs/classroom.md shows it) and answers its token. */
async function register(base: string, n: number): Promise<string> {
  const body = {
    first_name: 'Student',
    last_name: `Number ${n}`,
    username: `student_${n}`,
    email: `student${n}@example.org`,
    password: `the passphrase of student ${n}`,
  };
  return ((await call(base, 'POST', '/api/v1/auth/register', '', body)) as { token: string }).token;
}

/**
 * Student `student`'s writes, one after another: in turn a new location, its name changed, and
 * its pt-BR translation; `timed` receives each one's latency in ms. With `pace`, write `n` is
 * due at `first + n × everyMs` (open loop): it is sent then, or as soon as the one before is
 * answered if that is later, and that lateness counts in its latency (`until`).
 */
async function writeAll(
  base: string,
  token: string,
  student: number,
  writes: number,
  timed: (ms: number) => void,
  pace?: { first: number; everyMs: number },
) {
  let location = '';
  for (let n = 0; n < writes; n++) {
    const name = `Place ${student}.${Math.floor(n / 3)}`;
    const [method, path, body] =
      n % 3 === 0
        ? ['POST', '/api/v1/locations', { name, description: `Where student ${student} went` }]
        : n % 3 === 1
          ? ['PATCH', `/api/v1/locations/${location}`, { name: `${name}, renamed` }]
          : ['POST', `/api/v1/locations/${location}/translations`, { language: 'pt-BR', name: `Lugar ${name}` }];
    const started = pace ? await until(pace.first + n * pace.everyMs) : performance.now();
    const answer = await call(base, method, path, token, body);
    timed(performance.now() - started);
    if (n % 3 === 0) location = (answer as { uuid: string }).uuid;
  }
}

/**
 * Waits until `performance.now()` reaches `due`, and answers when the write's latency counts
 * from: `due` when it is past already (the write before held the student: that wait counts),
 * else the moment the timer fired (a timer the client fires late is not the server's doing).
 */
async function until(due: number): Promise<number> {
  const wait = due - performance.now();
  if (wait <= 0) return due;
  await new Promise((resolve) => setTimeout(resolve, wait));
  return performance.now();
}

/**
 * The students of `tokens` writing `writes` writes each again, each one write every `pace`
 * seconds from a random moment within the first `pace` seconds: a class at a human pace.
 */
async function paced(s: Child, tokens: string[], options: ClassroomOptions): Promise<ClassroomFigures['paced']> {
  const latencies: number[] = [];
  const everyMs = options.pace * 1000;
  const start = performance.now();
  const cpuBefore = await s.cpuSeconds();
  await Promise.all(
    tokens.map((token, student) =>
      writeAll(origin(s), token, 1000 + student, options.writes, (ms) => latencies.push(ms), {
        first: start + Math.random() * everyMs,
        everyMs,
      }),
    ),
  );
  const cpuMs = (((await s.cpuSeconds()) - cpuBefore) * 1000) / latencies.length;
  return { latencies: latencies.sort((x, y) => x - y), cpuMs };
}

/**
 * Seconds each side is read alone before a pair's rounds. After the collection before the
 * anonymous rounds, S spent its first seconds optimizing its HTTP code again (a perf profile:
 * TurboFan's compile thread at 2.5 % of its samples, against 0.5 % in B; `parserOnIncoming` and
 * `end` in baseline code): 100 µs a read over its first 6 s, then 75, as B's 75 and 77.
 */
export const WARM_UP_SECONDS = 8;

/** `rounds` rounds of `seconds` one-second slices of each side in turn, the first side alternating, after each side's warm-up. */
async function pair(
  subject: { child: Child; headers: Record<string, string> },
  reference: { child: Child; headers: Record<string, string> },
  path: string,
  options: ClassroomOptions,
  label: string,
): Promise<ReadPair> {
  const sides = [subject, reference].map((side) => ({ child: side.child, request: { path, headers: side.headers } }));
  for (const side of sides)
    await drive(origin(side.child) + path, side.request.headers, 200, {
      seconds: WARM_UP_SECONDS,
      connections: options.connections,
    });
  const result: ReadPair = { subject: [], reference: [], ratio: 0 };
  for (let round = 1; round <= options.rounds; round++) {
    options.progress(`${label}, round ${round}/${options.rounds}`);
    const order = round % 2 ? sides : [...sides].reverse();
    const measures = await sliced(order, 200, options);
    if (round % 2 === 0) measures.reverse();
    result.subject.push(measures[0]!);
    result.reference.push(measures[1]!);
  }
  const rps = (list: Measure[]) => median(list.map((m) => m.rps));
  result.ratio = rps(result.subject) / rps(result.reference);
  return result;
}

/** What `SANDBOX_MB` counts for the writes kept in `file` (one JSON line a write, with its changes). */
async function estimate(file: string): Promise<number> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.startsWith('{'));
  const writes = lines.map((line) => JSON.parse(line) as { changes?: unknown; account?: { uuid: string } });
  const accounts = new Set(writes.flatMap((write) => (write.changes ? [write.account?.uuid] : [])));
  const json = writes.reduce((sum, write) => sum + (write.changes ? JSON.stringify(write.changes).length : 0), 0);
  return json * ESTIMATE.perJsonByte + accounts.size * ESTIMATE.perSandbox;
}

/**
 * Server S (classroom mode, compiled, as deployed) with `sandboxes` students writing `writes`
 * writes each, all students at once: each write's latency and the memory they take (after a
 * collection); then as many again at a human pace (`paced`); then reads by uuid on S by a sandboxed student against a signed-in one without
 * a sandbox, and anonymous reads on S against server B (classroom mode, having taken as many
 * writes and served as many signed-in reads as S, every sandbox reset: none left).
 *
 * @example
 * const figures = await measureClassroom({ sandboxes: 30, writes: 50, rounds: 3, seconds: 5, connections: 50, dataDir: './data', progress: console.error });
 */
export async function measureClassroom(options: ClassroomOptions): Promise<ClassroomFigures> {
  const { progress } = options;
  const work = await mkdtemp(join(tmpdir(), 'bench-classroom-'));
  const children: Child[] = [];
  try {
    progress('starting server S and server B (classroom mode)');
    const start = async (name: string) => {
      const child = await startOurs(
        options.dataDir,
        { ...CLASSROOM_ENV, ACCOUNTS_FILE: join(work, name, 'accounts.json') },
        PROBE,
      );
      children.push(child);
      return child;
    };
    const [s, b] = [await start('s'), await start('b')];
    const base = origin(s);
    progress(`registering ${options.sandboxes + 2} students on S`);
    const tokens: string[] = [];
    for (let n = 0; n < options.sandboxes + 2; n++) tokens.push(await register(base, n));
    const [warmUp, reader] = [tokens.pop()!, tokens.pop()!];
    // The first 12 untimed: the first writes of a process compile the write path's code. Then reset.
    progress(`one student writing ${12 + options.writes} writes alone`);
    await writeAll(base, warmUp, -1, 12, () => {});
    const alone: number[] = [];
    await writeAll(base, warmUp, -2, options.writes, (ms) => alone.push(ms));
    await call(base, 'DELETE', '/api/v1/sandbox', warmUp);
    // B takes as many writes as S will, from students of its own, then resets every sandbox: the
    // anonymous reads then compare a server holding sandboxes with one that held as many and holds
    // none, both having run the same code.
    progress(`B: ${options.sandboxes} students writing ${2 * options.writes} writes each, then every sandbox reset`);
    const others: string[] = [];
    for (let n = 0; n < options.sandboxes; n++) others.push(await register(origin(b), n));
    await Promise.all(
      others.map((token, student) => writeAll(origin(b), token, student, 2 * options.writes, () => {})),
    );
    for (const token of others) await call(origin(b), 'DELETE', '/api/v1/sandbox', token);
    // B is collected whenever S is: with S alone collected, S spent about a fifth more CPU a read than B
    // afterwards (0.73 to 0.86 of its req/s in four runs), 6 % more once both were (0.97).
    const before = await heapAfterGc(s);
    await heapAfterGc(b);
    progress(`${options.sandboxes} students writing ${options.writes} writes each, all at once`);
    const latencies: number[] = [];
    const cpuBefore = await s.cpuSeconds();
    await Promise.all(
      tokens.map((token, student) => writeAll(base, token, student, options.writes, (ms) => latencies.push(ms))),
    );
    const cpuMs = (((await s.cpuSeconds()) - cpuBefore) * 1000) / latencies.length;
    const after = await heapAfterGc(s);
    await heapAfterGc(b);
    const estimatedBytes = await estimate(join(work, 's', 'sandboxes.json'));
    const perSecond = (options.sandboxes / options.pace).toFixed(1);
    progress(
      `the same ${options.sandboxes} students, ${options.writes} writes again each, one every ${options.pace} s (${perSecond} writes/s)`,
    );
    const human = await paced(s, tokens, options);
    const locations = (await (await fetch(`${base}/api/v1/locations`)).json()) as { uuid: string }[];
    const path = `/api/v1/locations/${locations[0]!.uuid}`;
    const sandboxed = await pair(
      { child: s, headers: bearer(tokens[0]!) },
      { child: s, headers: bearer(reader) },
      path,
      options,
      'by uuid on S: a sandboxed student, a student without a sandbox',
    );
    // And B serves the signed-in reads S just served, from one of its students (no sandbox left).
    await drive(origin(b) + path, bearer(others[0]!), 200, {
      seconds: options.rounds * options.seconds + 1,
      connections: options.connections,
    });
    // Both start the anonymous rounds collected: the paced writes had left S's old generation near
    // its limit, and its next major collection ran during those rounds (seen in a perf profile).
    await heapAfterGc(s);
    await heapAfterGc(b);
    const anonymous = await pair(
      { child: s, headers: {} },
      { child: b, headers: {} },
      path,
      options,
      'by uuid, anonymous: S, B',
    );
    return {
      sandboxes: options.sandboxes,
      writes: options.writes,
      latencies: latencies.sort((x, y) => x - y),
      alone: alone.sort((x, y) => x - y),
      paced: human,
      cpuMs,
      before,
      after,
      estimatedBytes,
      sandboxed,
      anonymous,
    };
  } finally {
    for (const child of children) await child.stop();
    await rm(work, { recursive: true, force: true });
  }
}
