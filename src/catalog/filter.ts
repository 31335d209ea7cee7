import { compareKeys, type FieldIndex, type Range, type Scalar } from './field-index.ts';
import { intersect, subtract, type Postings } from './postings.ts';
import type { FamilyStore } from './store.ts';

/**
 * One condition on one field. On list fields `eq` means "contains the value", `any`/`all`
 * "contains one/every value" and `ne`/`none` "contains none of them". Negative conditions
 * (`ne`, `none`, `not-contains`) also match records that lack the field.
 */
export type Condition =
  | { field: string; op: 'eq' | 'ne'; value: Scalar }
  | { field: string; op: 'contains' | 'not-contains'; value: string }
  | { field: string; op: 'any' | 'all' | 'none'; values: readonly Scalar[] }
  | { field: string; op: 'range'; range: Range };

function inRange(value: Scalar, { min, max, minInclusive = true, maxInclusive = true }: Range): boolean {
  if (min !== undefined && compareKeys(value, min) < (minInclusive ? 0 : 1)) return false;
  return max === undefined || compareKeys(value, max) <= (maxInclusive ? 0 : -1);
}

/** Whether a record whose field holds `values` (undefined: lacks it) meets `condition`. */
export function holds(condition: Condition, values: readonly Scalar[] | undefined): boolean {
  const has = (value: Scalar) => values?.includes(value) ?? false;
  const contains = (needle: string) =>
    values?.some((v) => String(v).toLowerCase().includes(needle.toLowerCase())) ?? false;
  switch (condition.op) {
    case 'eq':
      return has(condition.value);
    case 'ne':
      return !has(condition.value);
    case 'contains':
      return contains(condition.value);
    case 'not-contains':
      return !contains(condition.value);
    case 'any':
      return condition.values.some(has);
    case 'all':
      return condition.values.every(has);
    case 'none':
      return !condition.values.some(has);
    case 'range':
      return values?.some((v) => inRange(v, condition.range)) ?? false;
  }
}

/** What answering `condition` from its index reads: the basis for choosing how to answer it. */
function indexCost(condition: Condition, index: FieldIndex): number {
  switch (condition.op) {
    case 'range':
      return index.rangeSize(condition.range);
    case 'contains':
    case 'not-contains':
      return index.distinct;
    case 'ne':
      return index.get(condition.value).length;
    case 'none':
      return condition.values.reduce<number>((sum, value) => sum + index.get(value).length, 0);
    default:
      return 0;
  }
}

/** The positions meeting a positive condition, read from its index. */
function positive(condition: Condition, index: FieldIndex): Postings {
  switch (condition.op) {
    case 'eq':
      return index.get(condition.value);
    case 'any':
      return index.any(condition.values);
    case 'all':
      return index.all(condition.values);
    case 'contains':
      return index.contains(condition.value);
    case 'range':
      return index.range(condition.range);
    default:
      throw new Error(`${condition.op} is not positive`);
  }
}

/** The positions a negative condition excludes, read from its index. */
function excluded(condition: Condition, index: FieldIndex): Postings {
  switch (condition.op) {
    case 'ne':
      return index.get(condition.value);
    case 'none':
      return index.any(condition.values);
    case 'not-contains':
      return index.contains(condition.value);
    default:
      throw new Error(`${condition.op} is not negative`);
  }
}

const NEGATIVE = new Set(['ne', 'none', 'not-contains']);

/**
 * Positions (ascending) matching every condition. Exact lookups (`eq`, `any`, `all`) come
 * straight from their postings and are intersected shortest first. Every other condition is
 * answered the cheaper way: from its index (a range's or a negation's postings) when that
 * reads less than the candidates found so far, else by checking each candidate's own value.
 * So a filter costs about its most selective condition, not the size of the family.
 */
export function filterPositions(store: FamilyStore, conditions: readonly Condition[], language: string): Postings {
  const exact: Postings[] = [];
  const rest: { condition: Condition; index: FieldIndex; cost: number }[] = [];
  for (const condition of conditions) {
    const index = store.index(condition.field, language);
    if (condition.op === 'eq' || condition.op === 'any' || condition.op === 'all')
      exact.push(positive(condition, index));
    else rest.push({ condition, index, cost: indexCost(condition, index) });
  }
  exact.sort((a, b) => a.length - b.length);
  let result: Postings | undefined = exact[0];
  for (let i = 1; i < exact.length && result!.length > 0; i++) result = intersect(result!, exact[i]!);
  // Cheapest first, positives before negatives: each step can only shrink the candidates.
  rest.sort((a, b) => Number(NEGATIVE.has(a.condition.op)) - Number(NEGATIVE.has(b.condition.op)) || a.cost - b.cost);
  for (const { condition, index, cost } of rest) {
    if (result && result.length === 0) break;
    if (result && result.length < cost) {
      result = result.filter((position) => holds(condition, store.values(position, condition.field, language)));
    } else if (NEGATIVE.has(condition.op)) {
      result = subtract(result ?? store.all(), excluded(condition, index));
    } else {
      const found = positive(condition, index);
      result = result ? intersect(result, found) : found;
    }
  }
  return result ?? store.all();
}
