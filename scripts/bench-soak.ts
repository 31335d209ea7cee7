// npm run bench:soak [-- --quick] [--minutes M] [--sample S] [--cache 64,256] [--kinds "unique searches,mixed"] [--connections C] [--side-by-side]
// Hostile unique-URL traffic of each kind against the compiled server, RSS read as it runs.
// --side-by-side runs the cache sizes at once, one server each (half the time, each with half the machine).
import { parseArgs } from 'node:util';
import { recordSection } from './bench/document.ts';
import { soakTable } from './bench/report.ts';
import { HOSTILE_CLIENTS } from './bench/hostile.ts';
import { soak, SOAK_KINDS, type SoakKind, type SoakResult } from './bench/soak.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    sample: { type: 'string' },
    cache: { type: 'string', default: '64,256' },
    kinds: { type: 'string' },
    connections: { type: 'string', default: '20' },
    data: { type: 'string', default: './data' },
    'side-by-side': { type: 'boolean', default: false },
  },
});
const quick = values.quick!;
const seconds = quick ? 6 : Number(values.minutes ?? 10) * 60;
const sampleSeconds = Number(values.sample ?? (quick ? 1 : 30));
const caches = (quick ? '64' : values.cache!).split(',').map(Number);
const kinds = (values.kinds?.split(',') ?? SOAK_KINDS) as SoakKind[];
const connections = Number(values.connections);
if (
  ![seconds, sampleSeconds, connections, ...caches].every((n) => Number.isInteger(n) && n >= 0) ||
  kinds.some((kind) => !SOAK_KINDS.includes(kind))
) {
  console.error(
    `--minutes and --connections take whole numbers, --cache megabytes (comma-separated), --kinds some of: ${SOAK_KINDS.join(', ')}`,
  );
  process.exit(1);
}
const series = async (cacheMb: number): Promise<SoakResult[]> => {
  const done: SoakResult[] = [];
  for (const kind of kinds)
    done.push(
      await soak({
        kind,
        cacheMb,
        seconds,
        sampleSeconds,
        connections,
        dataDir: values.data!,
        progress: (line) => console.error(`… ${line}`),
      }),
    );
  return done;
};
const sideBySide = values['side-by-side']!;
const results: SoakResult[] = sideBySide ? (await Promise.all(caches.map(series))).flat() : [];
if (!sideBySide) for (const cacheMb of caches) results.push(...(await series(cacheMb)));
const text = `${soakTable(results, sampleSeconds)}\n\n${connections} connections (hostile GraphQL: ${HOSTILE_CLIENTS}), ${seconds / 60} min per soak${sideBySide ? ` (the ${caches.join(' and ')} MB series side by side, one server each)` : ''}, RSS every ${sampleSeconds} s; the compiled server in the default configuration (limits on with budgets raised so nothing is refused, half of the mixed traffic with a BASIC token).`;
console.log(text);
// A partial run (--kinds) prints its rows and leaves BENCHMARKS.md as it is.
if (!quick && !values.kinds) {
  await recordSection('soak', 'Memory under hostile traffic (npm run bench:soak)', text);
}
