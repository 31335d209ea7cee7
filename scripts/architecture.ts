// npm run architecture: prints the import graph of src/ by folder, as CONTRIBUTING.md shows it.
import { folderGraph } from './lib/folder-graph.ts';

console.log(await folderGraph());
