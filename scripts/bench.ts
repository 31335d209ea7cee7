// npm run bench [-- --data DIR] [--quick] [--rounds N] [--seconds S] [--connections C] [--only NAME] [--pin]
// Our server against a node:http baseline replaying its bytes and against json-server; then hostile GraphQL beside REST reads;
// then the change feed: a write reaching 1,000 streams, idle streams' memory and reads beside them, a feed page's CPU;
// then the server CPU of a CSV page against the same JSON page; then the reference page's first operation in Chromium.
import { parseArgs } from 'node:util';
import { recordSection } from './bench/document.ts';
import { changeFeedTable, measureChangeFeed } from './bench/changes.ts';
import { csvTable, measureCsv } from './bench/csv.ts';
import { measureHostile } from './bench/hostile.ts';
import { measureReferencePage, referencePageTable } from './bench/reference-page.ts';
import { hostileTable, throughputTable } from './bench/report.ts';
import { measureThroughput } from './bench/throughput.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: './data' },
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    pin: { type: 'boolean', default: false },
  },
});
const quick = values.quick!;
// Two rounds even in the quick mode: each server of a scenario then leads one (the first slice
// after a pause is measured slower), and one 1-s slice alone moved a ratio by up to 15 % either way.
const rounds = Number(values.rounds ?? (quick ? 2 : 3));
const seconds = Number(values.seconds ?? (quick ? 1 : 5));
const connections = Number(values.connections);
if (![rounds, seconds, connections].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('--rounds, --seconds and --connections must be positive integers');
  process.exit(1);
}
const pin = values.pin!;
const progress = (line: string) => console.error(`… ${line}`);
const rows = await measureThroughput({
  dataDir: values.data!,
  rounds,
  seconds,
  connections,
  pin,
  ...(values.only ? { only: values.only } : {}),
  progress,
});
// The hostile rows share one server: --only naming either runs both.
const hostile =
  !values.only ||
  ['hostile GraphQL: CPU per 490-field query', 'hostile GraphQL: REST beside it'].some((name) =>
    name.includes(values.only!),
  );
const feed = !values.only || 'change feed'.includes(values.only);
const csv = !values.only || 'csv page'.includes(values.only);
const reference = !values.only || 'reference page'.includes(values.only);
if (rows.length === 0 && !hostile && !feed && !csv && !reference) {
  console.error(`no scenario's name holds '${values.only}'`);
  process.exit(1);
}
const placement = pin ? '; every server pinned to CPU 1, the load to CPU 0' : '';
const settings = `${connections} connections, ${seconds} s per server per round in one-second slices taken in turn, ${rounds} round${rounds > 1 ? 's' : ''}, medians (efficiency: of each round's ratio, with a token against the baseline sent the same token)${placement}; data: ${values.data}`;
const parts = rows.length ? [`${throughputTable(rows)}\n\n${settings}.`] : [];
// At least 3 rounds: the ratio's median needs them, and a round takes 2 × seconds.
if (hostile)
  parts.push(
    hostileTable(
      await measureHostile({ dataDir: values.data!, rounds: Math.max(rounds, 3), seconds, connections, pin, progress }),
    ),
  );
if (feed) {
  const feedRow = await measureChangeFeed({
    streams: 1000,
    writes: quick ? 5 : 30,
    rounds: Math.max(rounds, quick ? 1 : 3),
    seconds,
    connections,
    progress,
  });
  const feedText = `${changeFeedTable(feedRow)}\n\nThe streams read \`since=now\` from one client process; a write is a PATCH of one actor, timed from its whole answer to its event on the last stream; ${feedRow.streams} streams, ${quick ? 5 : 30} writes, reads by uuid with ${connections} connections, ${seconds} s each way per round, medians.`;
  parts.push(feedText);
  // Its own section, written by a full run of it alone too (--only "change feed").
  if (!quick) await recordSection('change-feed', 'Change feed (npm run bench)', feedText);
}
if (csv) {
  const csvRow = await measureCsv({ rounds: Math.max(rounds, 3), seconds, workDir: 'var/bench', progress });
  const csvText = `${csvTable(csvRow)}\n\nThe compiled server on a generated catalog of 10,000 records, its response cache off so that each request builds its page (\`/api/v1/actors?size=100&page=3\`, with \`&format=csv\` for CSV); 4 connections, ${seconds} s per format per round, ${csvRow.rounds} rounds taken in turn, medians.`;
  parts.push(csvText);
  if (!quick) await recordSection('csv', 'CSV page (npm run bench)', csvText);
}
if (reference) {
  const referenceRow = await measureReferencePage({ dataDir: values.data!, loads: quick ? 2 : 5, progress });
  const referenceText = `${referencePageTable(referenceRow)}\n\nThe compiled server's \`/api/docs\` in headless Chromium (scripts/lib/chromium.ts), a fresh profile for each of ${referenceRow.loads} loads (a first visit), timed from navigation; medians.`;
  parts.push(referenceText);
  if (!quick) await recordSection('reference-page', 'Reference page (npm run bench)', referenceText);
}
const text = parts.join('\n\n');
console.log(text);
// A partial run (--only) prints its rows and leaves BENCHMARKS.md as it is.
if (!quick && !values.only) {
  await recordSection('throughput', 'Throughput (npm run bench)', text);
}
