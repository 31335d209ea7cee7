// npm run bench:classroom [-- --quick] [--sandboxes N] [--writes N] [--pace S] [--rounds N] [--seconds S] [--connections C]:
// classroom mode's sandboxes (docs/classroom.md): 30 students writing 50 writes each at once,
// their latency and memory, then as many again at a human pace (each student one write every
// --pace seconds, 2 by default), and what the sandboxes cost reads by uuid, sandboxed or not.
import { parseArgs } from 'node:util';
import { recordSection } from './bench/document.ts';
import { measureClassroom, type ClassroomOptions } from './bench/classroom.ts';
import { classroomTable } from './bench/classroom-report.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sandboxes: { type: 'string' },
    writes: { type: 'string' },
    pace: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    data: { type: 'string', default: './data' },
  },
});
const quick = values.quick!;
const options: ClassroomOptions = {
  sandboxes: Number(values.sandboxes ?? (quick ? 10 : 30)),
  writes: Number(values.writes ?? (quick ? 15 : 50)),
  // --quick keeps the rate of 30 students at 2 s (15 writes/s) with its 10 students.
  pace: Number(values.pace ?? (quick ? 2 / 3 : 2)),
  rounds: Number(values.rounds ?? (quick ? 1 : 5)),
  seconds: Number(values.seconds ?? (quick ? 1 : 3)),
  connections: Number(values.connections),
  dataDir: values.data!,
  progress: (line) => console.error(`… ${line}`),
};
if (
  ![options.sandboxes, options.writes, options.rounds, options.seconds, options.connections].every(
    (n) => Number.isInteger(n) && n > 0,
  ) ||
  !(options.pace > 0)
) {
  console.error(
    '--sandboxes, --writes, --rounds, --seconds and --connections must be positive integers, --pace a positive number',
  );
  process.exit(1);
}
const text = classroomTable(await measureClassroom(options), options);
console.log(text);
if (!quick) {
  await recordSection('classroom', 'Classroom sandboxes (npm run bench:classroom)', text);
}
