// npm run bench:writes [-- --quick] [--records N] [--writes N] [--pile-up N] [--rounds N] [--seconds S]:
// catalog writes as deployed: their latency on a generated catalog (100,000 records unless told),
// whether it grows as writes pile up in the overlay, and what 10 writes a second cost the
// readers of the embedded catalog.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { recordSection } from './bench/document.ts';
import { writesTables } from './bench/report.ts';
import {
  measureReadsUnderWrites,
  measureWriteLatency,
  measureWritePileUp,
  PILE_WINDOW,
  type WritesOptions,
} from './bench/writes.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    records: { type: 'string' },
    writes: { type: 'string' },
    'pile-up': { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
  },
});
const quick = values.quick!;
const options: WritesOptions = {
  records: Number(values.records ?? (quick ? 2000 : 100_000)),
  writes: Number(values.writes ?? (quick ? 30 : 300)),
  pileUp: Number(values['pile-up'] ?? 1500),
  rounds: Number(values.rounds ?? (quick ? 1 : 3)),
  seconds: Number(values.seconds ?? (quick ? 2 : 5)),
  connections: Number(values.connections),
  writesPerSecond: 10,
  workDir: 'var/bench',
  progress: (line) => console.error(`… ${line}`),
};
if (
  ![options.records, options.writes, options.rounds, options.seconds, options.connections].every(
    (n) => Number.isInteger(n) && n > 0,
  )
) {
  console.error('--records, --writes, --rounds, --seconds and --connections must be positive integers');
  process.exit(1);
}
if (!Number.isInteger(options.pileUp) || options.pileUp < 2 * PILE_WINDOW) {
  console.error(`--pile-up must be an integer of at least ${2 * PILE_WINDOW}`);
  process.exit(1);
}
const latency = await measureWriteLatency(options);
const pileUp = await measureWritePileUp(options);
const actor = (JSON.parse(readFileSync('data/actors.json', 'utf8')) as { uuid: string }[])[0]!.uuid;
const reads = await measureReadsUnderWrites(['/api/v1/episodes', `/api/v1/actors/${actor}`], options);
const text = writesTables(latency, pileUp, reads, options);
console.log(text);
if (!quick) {
  await recordSection('writes', 'Catalog writes (npm run bench:writes)', text);
}
