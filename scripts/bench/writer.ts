// The paced writer of bench:writes (startWriter in write-mix.ts): says it is ready, starts at the
// first line on its stdin, sends its plan's writes until its stdin closes, then prints how many
// were answered.
import { nthWrite, send, type WriterPlan } from './write-mix.ts';

const plan = JSON.parse(process.argv[2]!) as WriterPlan;
let writing = true;
const go = new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.on('end', () => (writing = false));
console.log('ready');
await go;
const every = 1000 / plan.perSecond;
let n = plan.from;
for (let next = performance.now(); writing; next += every) {
  await send(plan.base, plan.token, nthWrite(n++, plan.actors, plan.episodes));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next + every - performance.now())));
}
console.log(`written ${n - plan.from}`);
