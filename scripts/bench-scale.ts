// npm run bench:scale [-- --quick] [--sizes 10000,100000,1000000] [--seconds S] [--connections C] [--node PATH]…
// Cold starts of the embedded catalog beside a bare node:http server (on this node and on each
// --node binary), then boot time, memory and latency on generated catalogs.
import { parseArgs } from 'node:util';
import { recordSection } from './bench/document.ts';
import { measureColdStarts, measureNpmStart } from './bench/cold-start.ts';
import { bootTable, coldStartTable, scaleTable } from './bench/report.ts';
import { measureScale } from './bench/scale.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    node: { type: 'string', multiple: true, default: [] },
  },
});
const quick = values.quick!;
const sizes = (values.sizes ?? (quick ? '2000' : '10000,100000,1000000')).split(',').map(Number);
const seconds = Number(values.seconds ?? (quick ? 1 : 5));
const connections = Number(values.connections);
if (![...sizes, seconds, connections].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('--sizes (comma-separated), --seconds and --connections must be positive integers');
  process.exit(1);
}
const settleSeconds = quick ? 1 : 10;
const runs = quick ? 1 : 5;
console.error(`… the embedded catalog: ${runs} cold starts beside a bare node:http server`);
const nodes = [process.execPath, ...values.node!];
const cold = await measureColdStarts({ nodes, runs, settleSeconds });
const npmStartMs = await measureNpmStart(runs);
const rows = await measureScale({
  sizes,
  seconds,
  connections,
  settleSeconds,
  workDir: 'var/bench',
  progress: (line) => console.error(`… ${line}`),
});
const coldNote = `The embedded catalog: \`node dist/main.js\` (rate limits on) and a bare node:http server (\`node scripts/bench/bare-server.cjs\`) started alternately, ${runs} of each per node, each timed from spawning node to its first answer of /api/ping; medians. Memory read after ${settleSeconds} s idle.`;
const bootNote = `Generated catalogs: the compiled server started as the README runs it (rate limits on, \`--no-memory-reducer\`); memory read after ${settleSeconds} s idle.`;
const settings = `${connections} connections, ${seconds} s per query after a 1 s warm-up; "cache on" is the server as deployed, "cache off" (RESPONSE_CACHE_MB=0) runs every request's query.`;
const text = `${coldStartTable(cold, npmStartMs, runs)}\n\n${coldNote}\n\n${bootTable(rows)}\n\n${bootNote}\n\n${scaleTable(rows)}\n\n${settings}`;
console.log(text);
if (!quick) {
  await recordSection('scale', 'Scale (npm run bench:scale)', text);
}
