import { WARM_UP_SECONDS, type ClassroomFigures, type ClassroomOptions, type ReadPair } from './classroom.ts';
import { median, type Measure } from './load.ts';
import { table } from './report.ts';

/** The targets of the classroom issue: a sandbox write's p99, and the two read ratios. */
export const CLASSROOM_TARGETS = { writeP99Ms: 20, sandboxedRatio: 0.8, anonymousRatio: 0.95 };

/** `SANDBOX_MB`'s default: how many writes it holds is said for it. */
const SANDBOX_MB = 64;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const mark = (ok: boolean) => (ok ? '✓' : '✗');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Memory a write took, measured (RSS and heap after a collection) and as `SANDBOX_MB` counts it, in bytes. */
export function memoryPerWrite(figures: ClassroomFigures): { rss: number; heap: number; estimate: number } {
  const writes = figures.sandboxes * figures.writes;
  return {
    rss: (figures.after.rss - figures.before.rss) / writes,
    heap:
      (figures.after.heapUsed + figures.after.external - figures.before.heapUsed - figures.before.external) / writes,
    estimate: figures.estimatedBytes / writes,
  };
}

/** "1,234 against 1,500 req/s: **0.82** (0.80–0.85) ✓ (≥ 0.8)": medians, the ratio, each round's ratio's range. */
function ratioCell(pair: ReadPair, target: number): string {
  const rps = (list: Measure[]) => median(list.map((m) => m.rps));
  const ratios = pair.subject.map((m, i) => m.rps / pair.reference[i]!.rps);
  const spread = ratios.length > 1 ? ` (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : '';
  const wrong = [...pair.subject, ...pair.reference].reduce((sum, m) => sum + m.wrong, 0);
  // Given only when each side is a process of its own (see `sliced`).
  const cpuUs = (list: Measure[]) => median(list.map((m) => m.cpuUs ?? 0));
  const cpu =
    cpuUs(pair.subject) > 0
      ? `; server CPU a read ${cpuUs(pair.subject).toFixed(0)} against ${cpuUs(pair.reference).toFixed(0)} µs`
      : '';
  return (
    `${int(rps(pair.subject))} against ${int(rps(pair.reference))} req/s: **${pair.ratio.toFixed(2)}**${spread} ` +
    `${mark(pair.ratio >= target)} (≥ ${target})${cpu}${wrong ? ` ⚠ ${int(wrong)} wrong` : ''}`
  );
}

/**
 * The table of `npm run bench:classroom`: each target of the classroom issue with what was
 * measured and ✓ or ✗, then the memory a sandbox write takes; and a note on how.
 *
 * @example
 * console.log(classroomTable(await measureClassroom(options), options));
 */
export function classroomTable(figures: ClassroomFigures, options: ClassroomOptions): string {
  const { latencies, alone, paced, sandboxes, writes } = figures;
  const perSecond = sandboxes / options.pace;
  const latency = (sorted: number[]) =>
    `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 **${percentile(sorted, 99).toFixed(1)} ms** ` +
    `${mark(percentile(sorted, 99) < CLASSROOM_TARGETS.writeP99Ms)} (< ${CLASSROOM_TARGETS.writeP99Ms} ms), max ${sorted.at(-1)!.toFixed(1)} ms`;
  const memory = memoryPerWrite(figures);
  const held = Math.floor((SANDBOX_MB * 2 ** 20) / memory.estimate);
  const rows = [
    [
      `sandbox write, ${sandboxes} students at once (${sandboxes} writes in flight), ${writes} each one after another`,
      `${latency(latencies)}; server CPU ${figures.cpuMs.toFixed(1)} ms a write`,
    ],
    [
      `sandbox write, ${sandboxes} students at a human pace: each one write every ${+options.pace.toFixed(2)} s from a random moment (${+perSecond.toFixed(1)} writes/s in all), ${writes} each`,
      `${latency(paced.latencies)}; server CPU ${paced.cpuMs.toFixed(1)} ms a write`,
    ],
    [`sandbox write, one student alone (1 in flight), ${writes} one after another`, latency(alone)],
    [
      'read by uuid on S: a sandboxed student ÷ a signed-in student without a sandbox',
      ratioCell(figures.sandboxed, CLASSROOM_TARGETS.sandboxedRatio),
    ],
    [
      'anonymous read by uuid: S (with the sandboxes) ÷ B (none)',
      ratioCell(figures.anonymous, CLASSROOM_TARGETS.anonymousRatio),
    ],
    [
      `memory a sandbox write takes (${int(sandboxes * writes)} writes)`,
      `**${kb(memory.rss)}** of RSS (${kb(memory.heap)} of heap and external), after a collection ` +
        `(${int(figures.before.rss / 2 ** 20)} → ${int(figures.after.rss / 2 ** 20)} MB); ` +
        `SANDBOX_MB counts ${kb(memory.estimate)}, so ${SANDBOX_MB} MB hold about ${int(held)} such writes`,
    ],
  ];
  const note =
    `Server S: the compiled server in classroom mode (\`CLASSROOM=on\`, rate limits on, budgets raised as in the other benches, \`LOG_LEVEL=warn\`, \`SCRYPT_N=1024\` for quick sign-ups), ` +
    `${sandboxes} registered students writing at once, each ${writes} writes one after another (a new location, its name changed, its pt-BR translation, in turn), ` +
    `each timed from the request to the whole answer (sent with node:http on connections kept open, as the bench's other clients); before them, another student's 12 untimed writes then ${writes} timed alone, then that sandbox reset. ` +
    `Then the same students write ${writes} writes each again at a human pace (open loop: each write is due ${+options.pace.toFixed(2)} s after the one before, the first at a random moment within the first ${+options.pace.toFixed(2)} s; a write due while the one before is not answered yet is timed from when it was due). ` +
    `Writes that arrive while others are being kept are appended together with one flush (group commit), but each is staged and gated on its own: with every student writing again the moment it is answered, ` +
    `${sandboxes} writes are always in flight and each waits for about ${sandboxes} writes' CPU, so the < ${CLASSROOM_TARGETS.writeP99Ms} ms target is met, if at all, at a human pace, not in that stress row. ` +
    `Memory: RSS after a collection (heap-probe.mjs, as bench:soak) before and after the writes, divided by their number (each sandbox's own catalog and response cache counted in). ` +
    `Reads: \`GET /api/v1/locations/<uuid>\`, autocannon, ${options.connections} connections, ${options.seconds} one-second slices of each side in turn per round, ` +
    `${options.rounds} round${options.rounds > 1 ? 's' : ''} starting with either side in turn after ${WARM_UP_SECONDS} s of the same reads on each (S re-optimizes its HTTP code in its first seconds after a collection), medians (the range: each round's ratio); ` +
    `server B: the same as S, in classroom mode, with no sandbox; both started with the same flags, \`--min-semi-space-size=16\` included (a young generation of the size V8 grows it to under load, on both: left to V8, the one shrunk at a quiet collection grew back at its own pace and the ratio measured that), B collected whenever S is, and both just before the anonymous rounds; before S's writes, B's own ${sandboxes} students write as many writes as S's will (all at once), then each resets its sandbox, and before the anonymous rounds one of them (no sandbox left) reads as many seconds as S's signed-in student without a sandbox did: the two servers have run the same code, and only S holds sandboxes.`;
  return `${table(['target', 'measured'], rows)}\n\n${note}`;
}
