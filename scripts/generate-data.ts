// npm run generate-data -- --actors 100000 [--seed 1] [--out DIR]: writes a valid data directory.
import { parseArgs } from 'node:util';
import { generateCatalog, writeCatalog } from './lib/generate-catalog.ts';

const { values } = parseArgs({
  options: {
    actors: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'var/generated' },
  },
});
const actors = Number(values.actors);
const seed = Number(values.seed);
if (!Number.isInteger(actors) || actors < 1 || !Number.isInteger(seed)) {
  console.error('--actors must be a positive integer and --seed an integer');
  process.exit(1);
}
const files = generateCatalog({ actors, seed });
await writeCatalog(values.out!, files);
let total = 0;
for (const rows of files.values()) total += rows.length;
console.log(`wrote ${values.out}: ${files.size} files, ${total} rows (seed ${seed})`);
