// npm run bench:cluster [-- --seconds S] [--connections C]
// Reads and sign-ins through nginx with one instance, then three, sharing Redis.
import { parseArgs } from 'node:util';
import { measureCluster } from './bench/cluster.ts';
import { table } from './bench/report.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
  },
});
const seconds = Number(values.seconds ?? (values.quick ? 1 : 5));
const rows = await measureCluster({
  seconds,
  connections: Number(values.connections),
  progress: (line) => console.error(`… ${line}`),
});
const int = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(
  table(
    ['instances behind nginx', 'reads, one record by uuid (req/s)', 'sign-ins at SCRYPT_N=2^17 (per s)'],
    rows.map((r) => [String(r.instances), int(r.reads), r.authentications.toFixed(1)]),
  ),
);
console.log(
  `\n${values.connections} connections for reads, 8 for sign-ins, ${seconds} s each; accounts and limits in one local redis-server; all on this machine.`,
);
