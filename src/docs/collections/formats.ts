import { brunoCollection } from './bruno.ts';
import { httpFile } from './http-file.ts';
import type { CollectionPlan } from './plan.ts';
import { postmanCollection } from './postman.ts';

/** One collection the server serves: its media type, what it is for, and how it is written. */
export interface CollectionFormat {
  type: string;
  description: string;
  write: (plan: CollectionPlan) => string;
}

/** The collections served under `/api/collections/{name}`, by name (also the file name they download as). */
export const COLLECTION_FORMATS: Readonly<Record<string, CollectionFormat>> = {
  'postman.json': {
    type: 'application/json',
    description: 'A Postman Collection v2.1: import it in Postman, or run it with `newman run`',
    write: (plan) => JSON.stringify(postmanCollection(plan), null, 2),
  },
  'bruno.json': {
    type: 'application/json',
    description:
      'A Bruno collection (JSON): import it in the Bruno app; `bru run` runs it once written as a folder ' +
      'of .bru files (docs/clients.md)',
    write: (plan) => JSON.stringify(brunoCollection(plan), null, 2),
  },
  'catalog.http': {
    type: 'text/plain; charset=utf-8',
    description: 'An .http file for httpyac (`httpyac send catalog.http --all`), the JetBrains HTTP Client and VS Code',
    write: httpFile,
  },
};
