import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { FAMILIES, type FamilyName } from '../../src/catalog/families.ts';
import { tokenWithRole } from './admin.ts';
import { caller } from './curator-calls.ts';
import { dataFile, startApp, tempDir, TEST_ENV } from './http.ts';
import { ROOT } from './spawn.ts';

/** One write of a model sequence; `from`, when set, makes the body at the moment it is sent (from a GET, say). */
export interface Write {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  from?: (get: (path: string) => Promise<Record<string, unknown>>) => Promise<unknown>;
}

export const COPIED_FAMILIES = ['actors', 'characters', 'episodes', 'seasons', 'locations', 'soundtracks', 'games'];
type Copied = (typeof COPIED_FAMILIES)[number];

/** A family's records as its data files hold them, each with its default-language (en-US) translation row's fields. */
async function recordsOf(family: Copied): Promise<Record<string, unknown>[]> {
  const records = await dataFile(`${family}.json`);
  const { translation } = FAMILIES.get(family as FamilyName)!;
  if (!translation) return records;
  const rows = await dataFile(translation.file);
  return records.map((record) => {
    const row = rows.find(
      (candidate) => candidate[translation.parentKey] === record.uuid && candidate.language === 'en-US',
    );
    const { [translation.parentKey]: _parent, language: _language, ...fields } = row ?? {};
    return { ...record, ...fields };
  });
}

/** The records of the embedded catalog's files, by family: what a curator editing a fork copies from. */
export const RECORDS: Record<Copied, Record<string, unknown>[]> = Object.fromEntries(
  await Promise.all(COPIED_FAMILIES.map(async (family) => [family, await recordsOf(family)] as const)),
);

/** Fields a copy must not carry (the server sets them) and the fields that name a record. */
const SERVER_FIELDS = ['uuid', 'href', 'created_at', 'updated_at', 'languages', 'language'];
const NAME_FIELDS = ['name', 'title', 'first_name'];

/**
 * A curator's copy of a record: the server's fields dropped, its name changed, and some
 * fields (`drop`, by index into its own) left out, as one trims what should not be the same.
 */
export function copyOf(record: Record<string, unknown>, drop: readonly number[]): Record<string, unknown> {
  const fields = Object.entries(record).filter(([key]) => !SERVER_FIELDS.includes(key));
  const kept = fields.filter((_, i) => !drop.includes(i));
  return Object.fromEntries(
    kept.map(([key, value]) => [key, NAME_FIELDS.includes(key) ? `${String(value)} (copy)` : value]),
  );
}

const copied = fc.constantFrom(...COPIED_FAMILIES);
const drops = fc.array(fc.nat({ max: 16 }), { maxLength: 5 });

/** A new record copied from a record of data/ (pictures as paths) or from a GET's answer (pictures as URLs). */
export const copyWrite: fc.Arbitrary<Write> = fc
  .record({ family: copied, at: fc.nat(), drop: drops, served: fc.boolean() })
  .map(({ family, at, drop, served }) => {
    const original = RECORDS[family]![at % RECORDS[family]!.length]!;
    const path = `/api/v1/${family}`;
    return served
      ? { method: 'POST', path, from: async (get) => copyOf(await get(`${path}/${String(original.uuid)}`), drop) }
      : { method: 'POST', path, body: copyOf(original, drop) };
  });

/** A record read and sent back whole, as HawAPI's Go SDK updates: nothing may change, pictures included. */
export const echoWrite: fc.Arbitrary<Write> = fc.record({ family: copied, at: fc.nat() }).map(({ family, at }) => {
  const path = `/api/v1/${family}/${String(RECORDS[family]![at % RECORDS[family]!.length]!.uuid)}`;
  return { method: 'PATCH', path, from: (get) => get(path) };
});

/** The picture paths a thumbnail may be set to: drawn for another record, for none, a file that is not there, a URL. */
function pictureChoices(): fc.Arbitrary<string> {
  const owner = fc.record({ family: copied, at: fc.nat(), variant: fc.constantFrom('', '-1', '-7', '-999') });
  return fc.oneof(
    owner.map(
      ({ family, at, variant }) =>
        `/images/${family}/${String(RECORDS[family]![at % RECORDS[family]!.length]!.uuid)}${variant}.svg`,
    ),
    fc.constantFrom(
      '/images/actors/00000000-0000-4000-8000-000000000000.svg',
      '/images/contributed/not-there.png',
      '/images/episodes/../actors/x.svg',
      'https://pictures.example.org/a.png',
    ),
  );
}

/** A record's thumbnail or images set to a picture of `pictureChoices`. */
export const pictureWrite: fc.Arbitrary<Write> = fc
  .record({ family: copied, at: fc.nat(), picture: pictureChoices(), images: fc.boolean() })
  .map(({ family, at, picture, images }) => ({
    method: 'PATCH',
    path: `/api/v1/${family}/${String(RECORDS[family]![at % RECORDS[family]!.length]!.uuid)}`,
    body: images && family !== 'soundtracks' ? { images: [picture] } : { thumbnail: picture },
  }));

/**
 * The compiled server on a copy of data/ (in a folder of its own, beside its accounts and
 * overlay), a MAINTAINER's `call`, and the settings under which the command-line tools
 * (`catalog export`, `check-data`) share its files.
 */
export async function curatorOnCopy(username: string) {
  const dir = await tempDir();
  const dataDir = join(dir, 'data');
  await cp(join(ROOT, 'data'), dataDir, { recursive: true });
  const app = await startApp({ DATA_DIR: dataDir }, dir);
  const call = caller(app, await tokenWithRole(app, 'MAINTAINER', username));
  const env = { ...TEST_ENV, DATA_DIR: dataDir, ACCOUNTS_FILE: join(dir, 'accounts.json') };
  return { dir, dataDir, app, call, env };
}
