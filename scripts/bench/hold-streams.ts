// Holds change streams open for the change feed benchmark, in a process of its own so that
// reading them takes none of the load driver's CPU: `node --import tsx hold-streams.ts <url> <count>`
// prints `ready` once all are open, and closes them and exits when its stdin closes.
import { openStreams } from './stream-clients.ts';

const [url, count] = process.argv.slice(2);
const streams = await openStreams([url!], Number(count));
console.log('ready');
process.stdin.resume();
process.stdin.on('end', () => {
  streams.close();
  process.exit(0);
});
