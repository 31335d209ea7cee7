import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalText } from '../../src/catalog/canonical.ts';
import { FAMILIES, isFamilyName, type Family, type FamilyName, type FieldInfo } from '../../src/catalog/families.ts';
import { generatedPicturePath } from '../../src/catalog/pictures/references.ts';
import { writeWholeFile } from '../../src/lib/whole-file.ts';
import { newTranslations } from './new-translations.ts';

type Row = Record<string, unknown>;

/**
 * What `npm run new` did: the record, the files it wrote, what is left to the contributor, and
 * a note naming the catalog's languages the record has no translation row in.
 */
export interface NewRecord {
  uuid: string;
  href: string;
  files: string[];
  todo: string[];
  note?: string;
}

async function rows(dir: string, file: string): Promise<Row[]> {
  try {
    return JSON.parse(await readFile(join(dir, file), 'utf8')) as Row[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`${file} cannot be read as JSON (${(error as Error).message}); fix it first (npm run check-data)`);
  }
}

/** A local date-time as the data writes them: `2026-11-24T10:15:30.120`. */
const now = () => new Date().toISOString().replace('Z', '');

/**
 * The href a relation option names: an href, a bare uuid, or for seasons and episodes their
 * number (`--season 3`; an episode's number within the season being added to).
 */
function resolveRelation(field: FieldInfo, raw: string, data: Map<FamilyName, Row[]>, values: Row): string {
  const target = field.relation!;
  const records = data.get(target) ?? [];
  if (raw.startsWith('/api/v1/')) return raw;
  if (/^[0-9a-f-]{36}$/i.test(raw)) return `/api/v1/${target}/${raw.toLowerCase()}`;
  if (/^\d+$/.test(raw)) {
    const number = Number(raw);
    const found =
      target === 'seasons'
        ? records.find((r) => r.season_num === number)
        : target === 'episodes'
          ? records.find((r) => r.episode_num === number && r.season === values.season)
          : undefined;
    if (found) return String(found.href);
  }
  throw new Error(
    `--${field.name} ${raw}: no ${target} record is '${raw}'; give an href, a uuid${target === 'seasons' || target === 'episodes' ? ' or its number' : ''}`,
  );
}

/** A typed value for `field` from its option text (lists are comma-separated). */
function typed(field: FieldInfo, raw: string): unknown {
  const one = (text: string) => (field.kind === 'integer' || field.kind === 'number' ? Number(text) : text);
  if (field.kind === 'integer' && raw.split(',').some((text) => !/^-?\d+$/.test(text.trim())))
    throw new Error(`--${field.name} must be a whole number, got '${raw}'`);
  return field.list ? raw.split(',').map((text) => one(text.trim())) : one(raw);
}

/** Adds `href` to the list `field` of `row`, or sets it when the field is not a list. */
function link(row: Row, family: Family, field: string, href: string): void {
  if (family.fields.get(field)?.list) {
    const list = Array.isArray(row[field]) ? (row[field] as string[]) : [];
    if (!list.includes(href)) row[field] = [...list, href];
  } else {
    row[field] = href;
  }
}

/** A new episode joins its season at the end: numbered after the last, chained after it, counted in the totals. */
function joinSeason(record: Row, data: Map<FamilyName, Row[]>): void {
  const seasons = data.get('seasons')!;
  const season = seasons.find((s) => s.href === record.season);
  const episodes = data.get('episodes')!.filter((e) => e.season === record.season);
  record.episode_num ??= Math.max(0, ...episodes.map((e) => Number(e.episode_num) || 0)) + 1;
  const last = episodes.find((e) => e.episode_num === Number(record.episode_num) - 1);
  if (last) {
    // The new episode takes the place of the last one in the chain (a link into the next season included).
    if (typeof last.next_episode === 'string') {
      record.next_episode ??= last.next_episode;
      const following = data.get('episodes')!.find((e) => e.href === last.next_episode);
      if (following) following.prev_episode = record.href;
    }
    last.next_episode = record.href;
    record.prev_episode ??= last.href;
  }
  if (season && typeof record.duration === 'number' && typeof season.duration_total === 'number')
    season.duration_total += record.duration;
}

/**
 * Adds a record of `name` to the data directory `dir`: a fresh uuid and its href, timestamps,
 * its pictures (the drawn ones, `/images/<family>/<uuid>.svg`, unless `thumbnail` or `images` are given),
 * the fields `options` give (typed by the schema), its default-language translation row with
 * the translated fields given (`title`), a row in another language only when one of its
 * fields is given (`title.pt-BR`), and the links on the other side of every two-sided
 * relation (a new episode joins its season's list, numbering and prev/next chain). Every file
 * it touches is written in canonical form. What it cannot know is left for
 * `npm run check-data` to name.
 *
 * @example
 * await newRecord('./data', 'episodes', { season: '3', duration: '2700000', title: 'The Last Tide' }, 'en-US');
 */
export async function newRecord(
  dir: string,
  name: string,
  options: Record<string, string>,
  defaultLanguage: string,
): Promise<NewRecord> {
  if (!isFamilyName(name) || name === 'overview')
    throw new Error(
      `'${name}' is not a family that takes new records; one of ${[...FAMILIES.keys()].filter((n) => n !== 'overview').join(', ')}`,
    );
  const family = FAMILIES.get(name)!;
  const data = new Map<FamilyName, Row[]>();
  for (const other of FAMILIES.values()) data.set(other.name, await rows(dir, other.file));
  const translations = family.translation ? await rows(dir, family.translation.file) : [];

  const uuid = randomUUID();
  const href = `/api/v1/${name}/${uuid}`;
  const record: Row = { uuid, href };
  const translated: Row = {};
  const known = Object.keys(family.schema.properties ?? {});
  for (const [option, raw] of Object.entries(options)) {
    const [base = option, tag] = option.split(/\.(.*)/);
    const field = family.fields.get(base);
    if (family.translation?.fields.includes(base)) translated[option] = field ? typed(field, raw) : raw;
    else if (tag !== undefined)
      throw new Error(
        `--${option}: ${name} have no translated field '${base}'${family.translation ? `; translated fields: ${family.translation.fields.join(', ')}` : ' (they have no translations)'}`,
      );
    else if (field?.relation)
      record[option] = field.list
        ? raw.split(',').map((one) => resolveRelation(field, one.trim(), data, record))
        : resolveRelation(field, raw, data, record);
    else if (field) record[option] = typed(field, raw);
    else if (known.includes(option)) record[option] = raw;
    else
      throw new Error(
        `${name} have no field '${option}'; fields: ${[...known, ...(family.translation?.fields ?? [])].join(', ')}`,
      );
  }
  // The pictures the server draws for the record, until a contributor gives files of their own.
  record.thumbnail ??= generatedPicturePath(name, uuid, 0);
  if (known.includes('images')) record.images ??= [generatedPicturePath(name, uuid, 1)];
  record.created_at = now();
  record.updated_at = record.created_at;
  const languages = (data.get('overview')?.[0]?.languages as string[] | undefined) ?? [defaultLanguage];
  const translation = family.translation && newTranslations(family, uuid, translated, languages, defaultLanguage);

  const touched = new Set<FamilyName>([name]);
  if (name === 'episodes' && typeof record.season === 'string') {
    joinSeason(record, data);
    touched.add('seasons');
  }
  for (const field of family.fields.values()) {
    if (!field.relation || !field.inverse) continue;
    for (const target of [record[field.name]].flat().filter((v): v is string => typeof v === 'string')) {
      const other = data.get(field.relation)!.find((r) => r.href === target);
      if (!other) continue;
      link(other, FAMILIES.get(field.relation)!, field.inverse, href);
      touched.add(field.relation);
    }
  }
  data.get(name)!.push(record);

  const files: string[] = [];
  for (const touchedName of touched) {
    const file = FAMILIES.get(touchedName)!.file;
    await writeWholeFile(join(dir, file), canonicalText(file, data.get(touchedName)));
    files.push(file);
  }
  if (translation) {
    const file = family.translation!.file;
    translations.push(...translation.rows);
    await writeWholeFile(join(dir, file), canonicalText(file, translations));
    files.push(file);
  }
  const todo = [...(translation?.todo ?? [])];
  const missing = (family.schema.required ?? []).filter((f) => record[f] === undefined);
  if (missing.length) todo.push(`${family.file}: the new record needs ${missing.join(', ')}`);
  return { uuid, href, files, todo, ...(translation?.note ? { note: translation.note } : {}) };
}
