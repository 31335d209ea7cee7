// npx tsx scripts/bruno-folder.ts bruno.json [folder]: writes the Bruno collection JSON the server
// serves (/api/collections/bruno.json) as the folder of .bru files `bru run` runs, with
// @usebruno/filestore, the package bru reads them with. (@usebruno/cli's own writer,
// createCollectionFromBrunoObject, drops each request's settings, such as followRedirects.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyCollection, stringifyFolder, stringifyRequest } from '@usebruno/filestore';

interface Item {
  type: string;
  name: string;
  seq?: number;
  root?: unknown;
  items?: Item[];
}

const [source, target = 'catalog-bruno'] = process.argv.slice(2);
if (!source) {
  console.error('usage: npx tsx scripts/bruno-folder.ts bruno.json [folder]');
  process.exit(1);
}
const collection = JSON.parse(readFileSync(source, 'utf8')) as { brunoConfig: object; root: object; items: Item[] };
/** A file or folder name from an item's name, as Bruno's own writer makes it. */
const fileName = (name: string) => name.replace(/[<>:"/\\|?*\u0000-\u001F]/g, '-').trim();

function write(items: Item[], folder: string): number {
  let files = 0;
  for (const item of items) {
    if (item.type === 'folder') {
      const path = join(folder, fileName(item.name));
      mkdirSync(path, { recursive: true });
      writeFileSync(join(path, 'folder.bru'), stringifyFolder(item.root, { format: 'bru' }));
      files += write(item.items ?? [], path) + 1;
    } else {
      writeFileSync(join(folder, `${fileName(item.name)}.bru`), stringifyRequest(item, { format: 'bru' }));
      files++;
    }
  }
  return files;
}

mkdirSync(target, { recursive: true });
writeFileSync(join(target, 'bruno.json'), `${JSON.stringify(collection.brunoConfig, null, 2)}\n`);
writeFileSync(
  join(target, 'collection.bru'),
  await stringifyCollection(collection.root, collection.brunoConfig, { format: 'bru' }),
);
const files = write(collection.items, target);
console.log(`wrote ${files + 2} files in ${target}: run it with cd ${target} && npx bru run -r`);
