import type { Scalar } from '../../src/catalog/field-index.ts';
import type { Condition } from '../../src/catalog/query.ts';
import type { Direction } from '../../src/catalog/sort.ts';
import type { FamilyStore } from '../../src/catalog/store.ts';

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
export function scanSort(store: FamilyStore, positions: number[], field: string, direction: Direction, language: string, collation: string): number[] {
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
