// npm run bench:scale [-- --quick] [--sizes 10000,100000,1000000] [--seconds S] [--connections C]
// Boot time, memory and latency under load on generated catalogs of growing size.
import { parseArgs } from 'node:util';
import { describeMachine, replaceSection } from './bench/document.ts';
import { bootTable, scaleTable } from './bench/report.ts';
import { measureEmbeddedBoot, measureScale } from './bench/scale.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
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
console.error('… the embedded catalog: boot and memory');
const embedded = await measureEmbeddedBoot(settleSeconds);
const rows = await measureScale({ sizes, seconds, connections, settleSeconds, workDir: 'var/bench', progress: (line) => console.error(`… ${line}`) });
const bootNote = `Compiled server started with plain node (rate limits on), as the README runs it; memory read after ${settleSeconds} s idle, once V8 has given back the boot's garbage.`;
const settings = `${connections} connections, ${seconds} s per query after a 1 s warm-up; "cache on" is the server as deployed, "cache off" (RESPONSE_CACHE_MB=0) runs every request's query.`;
const text = `${bootTable(embedded, rows)}\n\n${bootNote}\n\n${scaleTable(rows)}\n\n${settings}`;
console.log(text);
if (!quick) {
  const file = await replaceSection('scale', `## Scale (npm run bench:scale)\n\n${await describeMachine()}\n\n${text}\n`);
  console.error(`wrote ${file}`);
}
