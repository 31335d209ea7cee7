import type { ColdStarts } from './cold-start.ts';
import type { BootFigures, Both, ScaleRow } from './scale.ts';
import type { Variant } from './scenarios.ts';
import type { Figures, ThroughputRow } from './throughput.ts';
import { soakVerdict, type SoakResult } from './soak.ts';
import {
  PILE_WINDOW,
  type LatencyFigures,
  type PileUpFigures,
  type UnderWritesFigures,
  type WritesOptions,
} from './writes.ts';
import { median, type Measure } from './load.ts';
import { HOSTILE_CLIENTS, HOSTILE_TARGETS, hostileVerdict, IN_A_ROW, type HostileFigures } from './hostile.ts';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)}`;

/** A markdown table: one row per line of cells. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Column heads of the deployments, the default first. */
const VARIANTS: [Variant, string][] = [
  ['a', '(a) limits on'],
  ['b', '(b) limits on, token'],
  ['c', '(c) limits on, Redis'],
  ['d', '(d) limits off'],
  ['flood', '429 flood'],
];

/**
 * The throughput table of `npm run bench`: per scenario, the node:http baseline's req/s and
 * CPU per request, then in each deployment (the default first) our req/s and its ratio to the
 * baseline's, our CPU per request and the efficiency (the baseline's CPU ÷ ours in the same round: the median, then
 * the lowest and highest round), each with
 * its target beside it, and json-server's req/s with our ratio to it (limits off).
 *
 * @example
 * console.log(throughputTable(rows));
 */
export function throughputTable(rows: ThroughputRow[]): string {
  const used = VARIANTS.filter(([variant]) => rows.some((row) => row.ours[variant]));
  const warn = (f: Figures) => (f.wrong ? ` ⚠ ${f.wrong} wrong` : '');
  const body = rows.map(({ scenario, baseline, tokenBaseline, jsonServer, ours }) => {
    const cells = used.map(([variant]) => {
      const figures = ours[variant];
      if (!figures || !baseline) return '';
      const verdict = (value: number, target: number | undefined) =>
        target ? ` ${value >= target ? '✓' : '✗'} (≥ ${target})` : '';
      const ratio = figures.rps / baseline.rps;
      const efficiency = figures.efficiency?.median ?? baseline.cpuUs / figures.cpuUs;
      const { low, high } = figures.efficiency ?? {};
      const spread =
        low !== undefined && high !== undefined && high > low ? ` (${low.toFixed(2)}–${high.toFixed(2)})` : '';
      const against =
        variant === 'b' && tokenBaseline ? ` (baseline with the token ${tokenBaseline.cpuUs.toFixed(0)} µs)` : '';
      const cpu =
        figures.cpuUs > 0
          ? `; ${figures.cpuUs.toFixed(0)} µs${against}: **${efficiency.toFixed(2)}**${spread}${verdict(efficiency, scenario.efficiency?.[variant])}`
          : '';
      const p99 =
        scenario.maxP99Ms && variant === 'a'
          ? `; p99 ${ms(figures.p99)} ms ${figures.p99 < scenario.maxP99Ms ? '✓' : '✗'} (< ${scenario.maxP99Ms})`
          : '';
      return `${int(figures.rps)}: **${ratio.toFixed(2)}**${verdict(ratio, scenario.targets[variant])}${cpu}${p99}${warn(figures)}`;
    });
    const js =
      jsonServer && ours.d
        ? `${int(jsonServer.rps)} (ours ${(ours.d.rps / jsonServer.rps).toFixed(1)}×)${warn(jsonServer)}`
        : 'n/a';
    return [
      scenario.name,
      baseline
        ? `${int(baseline.rps)}; ${baseline.cpuUs.toFixed(0)} µs (p99 ${ms(baseline.p99)} ms)${warn(baseline)}`
        : 'n/a',
      ...cells,
      js,
    ];
  });
  return table(
    [
      'scenario',
      'node:http baseline: req/s; CPU per request',
      ...used.map(([, head]) => `${head}: req/s: ÷ baseline; CPU per request: efficiency`),
      'json-server req/s',
    ],
    body,
  );
}

/** Cold-start targets of the embedded catalog: within 3× a bare node:http server, in memory (MB). */
const COLD = { ratio: 3, rssMb: 70, peakMb: 100, npmStartMs: 1000 };

/**
 * The cold-start table: per node binary, medians of the bare node:http server's time to its
 * first answer and ours (`node dist/main.js`), their ratio, our memory settled and at its
 * peak, each against its target; then `npm start`'s time to its first answer.
 *
 * @example
 * console.log(coldStartTable(rows, 640, 5));
 */
export function coldStartTable(rows: ColdStarts[], npmStartMs: number, runs: number): string {
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  const body = rows.map((row) => {
    const ratio = row.oursMs / row.bareMs;
    return [
      row.version,
      `${Math.round(row.bareMs)} ms, ${mb(row.bareRssBytes)} MB`,
      `${Math.round(row.oursMs)} ms`,
      `**${ratio.toFixed(2)}** ${mark(ratio <= COLD.ratio)} (≤ ${COLD.ratio})`,
      `${mb(row.rssBytes)} MB ${mark(mb(row.rssBytes) <= COLD.rssMb)} (≤ ${COLD.rssMb})`,
      `${mb(row.peakBytes)} MB ${mark(mb(row.peakBytes) <= COLD.peakMb)} (≤ ${COLD.peakMb})`,
    ];
  });
  const npm = `\`npm start\` (npm, the prestart check that dist/ is current, then the server) to its first answer: ${Math.round(npmStartMs)} ms ${mark(npmStartMs <= COLD.npmStartMs)} (≤ ${COLD.npmStartMs} ms), median of ${runs}.`;
  return `${table(['node', 'bare node:http: first answer, RSS', 'ours: first answer', 'ours ÷ bare', 'ours: RSS settled', 'ours: peak RSS'], body)}

${npm}`;
}

/** The targets of boot and memory of the generated catalogs (issue: a small machine's view). */
const BOOT_TARGETS: Record<string, { readyMs: number; rssMb: number; peakMb?: number }> = {
  '100000': { readyMs: 2000, rssMb: 450 },
  '1000000': { readyMs: 20_000, rssMb: 2200 },
};

/** Ready time, settled RSS and peak RSS of one boot, each with its target when it has one. */
function bootCells(label: string, figures: BootFigures): string[] {
  const target = BOOT_TARGETS[label];
  const mark = (ok: boolean) => (ok ? ' ✓' : ' ✗');
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  const ready = `${(figures.readyMs / 1000).toFixed(2)} s${target ? `${mark(figures.readyMs < target.readyMs)} (< ${target.readyMs / 1000} s)` : ''}`;
  const rss = `${mb(figures.rssBytes)} MB${target ? `${mark(mb(figures.rssBytes) <= target.rssMb)} (≤ ${target.rssMb} MB)` : ''}`;
  const peak = `${mb(figures.peakBytes)} MB${target?.peakMb ? `${mark(mb(figures.peakBytes) <= target.peakMb)} (≤ ${target.peakMb} MB)` : ''}`;
  return [ready, rss, peak];
}

/**
 * The boot and memory table of each generated size: ready time (from starting node until it
 * answers), RSS once settled after boot, and peak RSS.
 *
 * @example
 * console.log(bootTable(rows));
 */
export function bootTable(rows: ScaleRow[]): string {
  const body = rows.map((row) => [int(row.records), ...bootCells(String(row.records), row)]);
  return table(['catalog', 'ready (node start → first answer)', 'RSS after boot (settled)', 'peak RSS'], body);
}

/**
 * The table of `npm run bench:scale`: per size, boot, memory and p99 latency of each query
 * as deployed (response cache on) and computed on every request (cache off), with the
 * targets beside the 100k figures and the 1M computed filter compared with the 100k one.
 *
 * @example
 * console.log(scaleTable(rows));
 */
export function scaleTable(rows: ScaleRow[]): string {
  const at100k = rows.find((r) => r.records === 100_000);
  const mark = (ok: boolean) => (ok ? ' ✓' : ' ✗');
  const p99 = (both: Both) => `${ms(both.served.p99)} / ${ms(both.computed.p99)} ms`;
  const body = rows.map((row) => {
    const is100k = row === at100k;
    let filtered = p99(row.filtered);
    if (is100k) filtered += `${mark(row.filtered.served.p99 < 10)} (< 10 ms)`;
    if (row.records === 1_000_000 && at100k) {
      const ratio = row.filtered.computed.p99 / Math.max(at100k.filtered.computed.p99, 1);
      filtered += `; computed ${ratio.toFixed(1)}× 100k${mark(ratio <= 3)} (≤ 3×)`;
    }
    let search = `${p99(row.search)} ('${row.searchWords}': ${int(row.searchMatches)} matches)`;
    if (is100k) search += `${mark(row.search.served.p99 < 10)} (< 10 ms)`;
    const wrong = [row.filtered, row.deepPage, row.search].reduce(
      (sum, b) => sum + b.served.wrong + b.computed.wrong,
      0,
    );
    return [
      int(row.records),
      filtered,
      `${p99(row.deepPage)} (page ${row.deepPageNumber})`,
      search + (wrong ? ` ⚠ ${wrong} wrong` : ''),
    ];
  });
  return table(
    ['records', 'filter p99 (cache on / off)', 'deep sorted page p99 (on / off)', 'search, 2 words, p99 (on / off)'],
    body,
  );
}

/**
 * The table of `npm run bench:soak`: per soak, requests, RSS at boot, a sample each minute, the
 * peak (VmHWM), the heap after a collection, and the verdicts (within boot + cache + headroom;
 * flat over the last five samples).
 *
 * @example
 * console.log(soakTable(results, 30));
 */
export function soakTable(results: SoakResult[], sampleSeconds: number): string {
  const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`;
  const rows = results.map((result) => {
    const { bounded, flat, ceiling } = soakVerdict(result);
    const trail = result.samples
      .filter((_, i) => i % Math.max(1, Math.round(60 / sampleSeconds)) === 0)
      .map(mb)
      .join(' → ');
    return [
      result.kind,
      `${result.cacheMb}`,
      `${int(result.requests)}${result.wrong ? ` ⚠ ${int(result.wrong)} refused or failed` : ''}`,
      mb(result.bootRss),
      trail,
      `${mb(result.peak)} ${bounded ? '✓' : '✗'} (≤ ${mb(ceiling)})`,
      `${flat ? '✓' : '✗'}`,
      `${mb(result.afterGc.heapUsed)} heap, ${mb(result.afterGc.external)} external, ${mb(result.afterGc.rss)} RSS`,
    ];
  });
  return table(
    [
      'traffic',
      'cache MB',
      'requests',
      'boot RSS MB',
      'RSS MB (each minute)',
      'peak RSS MB (VmHWM)',
      'flat at the end',
      'after a GC (MB)',
    ],
    rows,
  );
}

/**
 * The two tables of `npm run bench:writes`: write latency on a generated catalog against the
 * 50 ms p99 target, then reads alone and beside writes against the 0.9× target.
 */
export function writesTables(
  latency: LatencyFigures,
  pileUp: PileUpFigures,
  reads: UnderWritesFigures[],
  options: WritesOptions,
): string {
  const latencyTable = table(
    [
      'records',
      'writes timed',
      'p50 ms',
      'p99 ms (target < 50)',
      'max ms',
      'server CPU ms a write',
      'overlay file after',
    ],
    [
      [
        int(latency.records),
        int(latency.writes),
        ms(latency.p50),
        `${ms(latency.p99)} ${latency.p99 < 50 ? '✓' : '✗'}`,
        ms(latency.max),
        latency.cpuMs.toFixed(1),
        `${(latency.overlayBytes / 1024).toFixed(0)} KB`,
      ],
    ],
  );
  const last = `${int(pileUp.writes - PILE_WINDOW + 1)}–${int(pileUp.writes)}`;
  const bound = 1.5 * pileUp.firstP99 + 5;
  const pileUpTable = table(
    [
      'records',
      'writes piled up',
      `p99 ms, writes 1–${PILE_WINDOW}`,
      `p99 ms, writes ${last} (target ≤ 1.5× + 5 ms)`,
      'ratio',
      'overlay file after',
    ],
    [
      [
        int(pileUp.records),
        int(pileUp.writes),
        ms(pileUp.firstP99),
        `${ms(pileUp.lastP99)} ${pileUp.lastP99 <= bound ? '✓' : '✗'}`,
        (pileUp.lastP99 / pileUp.firstP99).toFixed(2),
        `${(pileUp.overlayBytes / 1024).toFixed(0)} KB`,
      ],
    ],
  );
  const readsTable = table(
    [
      'read',
      'req/s alone (median)',
      'req/s beside writes (median)',
      'ratio (target ≥ 0.9)',
      'server CPU µs a read, alone → beside (medians)',
      'writes/s taken',
    ],
    reads.map((row) => {
      const rps = (list: { rps: number }[]) => median(list.map((m) => m.rps));
      const cpuUs = (list: { cpuUs?: number }[]) => median(list.map((m) => m.cpuUs!)).toFixed(0);
      return [
        `\`${row.path}\``,
        int(rps(row.alone)),
        int(rps(row.beside)),
        `${row.ratio.toFixed(2)} ${row.ratio >= 0.9 ? '✓' : '✗'}`,
        `${cpuUs(row.alone)} → ${cpuUs(row.beside)}`,
        row.writeRate.toFixed(1),
      ];
    }),
  );
  const note =
    `Writes: one client (node:http, one connection kept open), one after another, a repeating mix of an actor's PATCH, an episode's translated-title PATCH and a soundtrack's POST, ` +
    `each timed from the request to the whole answer (staged, checked, written to the overlay file and flushed, then served), after 10 untimed. ` +
    `Reads: autocannon, ${options.connections} connections, ${options.seconds} s per round, ${options.rounds} rounds alone and ${options.rounds} beside ${options.writesPerSecond} writes a second (sent with node:http by a process of their own, loaded before the round), alternated, after 10 untimed writes and an untimed round of reads beside writes; the embedded catalog, the compiled server with its defaults (limits on). ` +
    `Server CPU a write: the server process's CPU time (every thread, user and system) over the timed writes, divided by their number; ` +
    `a read's, over a round of reads (beside writes, theirs counted in), divided by the reads answered. req/s also moves with what the load generator gets of the shared cores; the CPU a read says what the writes add to each.`;
  const pileUpNote = `Pile-up: a fresh overlay, 10 untimed writes, then ${int(pileUp.writes)} PATCHes one after another, each setting an actor's nationality to a new 200-character value; the p99 of the last ${PILE_WINDOW} against that of the first ${PILE_WINDOW}, in the same run.`;
  return `${latencyTable}\n\n${pileUpTable}\n\n${readsTable}\n\n${note} ${pileUpNote}`;
}

/**
 * The hostile GraphQL table of `npm run bench`: the server's CPU per 490-field query, then REST
 * reads by uuid beside 4 clients looping on it: p99 and req/s against the same reads alone,
 * each with its target (medians of the rounds).
 *
 * @example
 * console.log(hostileTable(await measureHostile(options)));
 */
export function hostileTable(figures: HostileFigures): string {
  const verdict = hostileVerdict(figures);
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  const spread = (values: number[], digits: number) =>
    values.length > 1 ? ` (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})` : '';
  const statuses = Object.entries(figures.statuses)
    .map(([code, count]) => `${int(count)} × ${code}`)
    .join(', ');
  const rps = (list: Measure[]) => int(median(list.map((m) => m.rps)));
  const body = [
    [
      `a new 490-field query (9 KB), ${IN_A_ROW} in a row`,
      `server CPU per query **${verdict.cpuMs.toFixed(1)} ms**${spread(figures.cpuMs, 1)} ${mark(verdict.cpuOk)} (≤ ${HOSTILE_TARGETS.cpuMs} ms)`,
    ],
    [
      `REST by uuid, ${figures.connections} connections, beside ${HOSTILE_CLIENTS} clients looping on it`,
      `p99 **${ms(verdict.p99)} ms** ${mark(verdict.p99Ok)} (< ${HOSTILE_TARGETS.p99Ms} ms; alone ${ms(median(figures.alone.map((m) => m.p99)))} ms); ` +
        `${rps(figures.beside)} req/s against ${rps(figures.alone)} alone: **${verdict.ratio.toFixed(2)}**${spread(figures.ratios, 2)} ${mark(verdict.ratioOk)} (≥ ${HOSTILE_TARGETS.ratio})`,
    ],
  ];
  const note =
    `Hostile GraphQL: the compiled server as deployed (limits on, budgets raised); every query a new text (a comment counts up), so no cache answers it; answers to the queries: ${statuses || 'none'} (${int(figures.looped)} from the looping clients). ` +
    `CPU from /proc/<pid>/stat (utime + stime) over each round's ${IN_A_ROW}; REST alone and beside in one-second slices taken in turn, ${figures.seconds} of each per round, ${figures.rounds} rounds, medians (the ratio: of each round's).`;
  return `${table(['hostile GraphQL', 'measured (median of the rounds)'], body)}\n\n${note}`;
}
