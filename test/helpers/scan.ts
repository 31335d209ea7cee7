import type { FieldInfo } from '../../src/catalog/families.ts';
import type { Scalar } from '../../src/catalog/field-index.ts';
import type { Condition } from '../../src/catalog/filter.ts';
import type { Direction } from '../../src/catalog/order.ts';
import type { FamilyStore } from '../../src/catalog/store.ts';
import { words } from '../../src/catalog/search.ts';

/** The value of `field` a reader of `language` sees at `position`, as a list of scalars. */
export function valuesAt(store: FamilyStore, position: number, field: string, language: string): Scalar[] | undefined {
  const info = store.family.fields.get(field)!;
  const value = info.translated ? store.translation(position, language).fields[field] : store.records[position]![field];
  if (value === undefined) return undefined;
  return info.list ? (value as Scalar[]) : [value as Scalar];
}

function matches(values: Scalar[] | undefined, c: Condition): boolean {
  const has = (v: Scalar) => values?.includes(v) ?? false;
  const compare = (a: Scalar, b: Scalar) => (typeof a === 'number' ? a - (b as number) : a < b ? -1 : a > b ? 1 : 0);
  switch (c.op) {
    case 'eq':
      return has(c.value);
    case 'ne':
      return !has(c.value);
    case 'contains':
      return values?.some((v) => String(v).toLowerCase().includes(c.value.toLowerCase())) ?? false;
    case 'not-contains':
      return !(values?.some((v) => String(v).toLowerCase().includes(c.value.toLowerCase())) ?? false);
    case 'any':
      return c.values.some(has);
    case 'all':
      return c.values.every(has);
    case 'none':
      return !c.values.some(has);
    case 'range': {
      const { min, max, minInclusive = true, maxInclusive = true } = c.range;
      return (
        values?.some((v) => {
          if (min !== undefined && (minInclusive ? compare(v, min) < 0 : compare(v, min) <= 0)) return false;
          if (max !== undefined && (maxInclusive ? compare(v, max) > 0 : compare(v, max) >= 0)) return false;
          return true;
        }) ?? false
      );
    }
  }
}

/** The straightforward answer to a query: test every record against every condition. */
export function scanQuery(store: FamilyStore, conditions: readonly Condition[], language: string): number[] {
  const out: number[] = [];
  for (let p = 0; p < store.size; p++) {
    if (conditions.every((c) => matches(valuesAt(store, p, c.field, language), c))) out.push(p);
  }
  return out;
}

/** The straightforward sort: by value (strings collated), missing last, ties by uuid. */
export function scanSort(
  store: FamilyStore,
  positions: number[],
  field: string,
  direction: Direction,
  language: string,
  collation: string,
): number[] {
  const collator = new Intl.Collator(collation);
  const sign = direction === 'asc' ? 1 : -1;
  const value = (p: number) => valuesAt(store, p, field, language)?.[0];
  return [...positions].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === undefined || vb === undefined) {
      if (va !== vb) return va === undefined ? 1 : -1;
    } else {
      const c = typeof va === 'number' ? va - (vb as number) : collator.compare(String(va), String(vb));
      if (c !== 0) return sign * c;
    }
    const ua = store.records[a]!.uuid;
    const ub = store.records[b]!.uuid;
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  });
}

/** Every word of a record's text fields in `language`, and those of its names and titles. */
function textWords(store: FamilyStore, position: number, language: string): { all: string[]; named: string[] } {
  const all: string[] = [];
  const named: string[] = [];
  for (const info of store.family.fields.values()) {
    if (!info.text) continue;
    for (const value of valuesAt(store, position, info.name, language) ?? []) {
      const found = words(String(value));
      all.push(...found);
      if (['name', 'title', 'first_name', 'last_name', 'nicknames'].includes(info.name)) named.push(...found);
    }
  }
  return { all, named };
}

/**
 * The straightforward search: records having, for every query word, a word starting with it;
 * ranked by how many query words start a word of their names and titles, then file order.
 */
export function scanSearch(store: FamilyStore, positions: number[], query: string[], language: string): number[] {
  const scored: [number, number][] = [];
  for (const p of positions) {
    const { all, named } = textWords(store, p, language);
    if (!query.every((q) => all.some((w) => w.startsWith(q)))) continue;
    scored.push([p, query.filter((q) => named.some((w) => w.startsWith(q))).length]);
  }
  return scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([p]) => p);
}

/**
 * About `count` values the family holds in `field` (and one it never holds), none with a comma
 * (the query string's list separator): what a property test filters on.
 */
export function sampleValues(store: FamilyStore, field: FieldInfo, language: string, count: number): Scalar[] {
  const values: Scalar[] = [];
  const step = Math.max(1, Math.floor(store.size / count));
  for (let p = 0; p < store.size; p += step) values.push(...(valuesAt(store, p, field.name, language) ?? []));
  const absent = {
    integer: 7,
    number: 7,
    date: '1999-12-31',
    'date-time': '1999-12-31T00:00:00.000',
    string: 'zz-absent',
  };
  values.push(absent[field.kind]);
  return values.filter((v) => !String(v).includes(','));
}

/** The query string of a REST list request: filters as `[name, value]` pairs, then search, language, page, size and sort. */
export function listParams(
  filters: [string, string][],
  {
    q,
    language,
    page,
    size,
    sort,
  }: { q?: string; language: string; page: number; size: number; sort?: { field: string; direction: string } },
): URLSearchParams {
  const params = new URLSearchParams(filters);
  if (q) params.set('q', q);
  params.set('language', language);
  params.set('page', String(page));
  params.set('size', String(size));
  if (sort) params.set('sort', `${sort.field},${sort.direction}`);
  return params;
}
