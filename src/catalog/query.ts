import type { Range, Scalar } from './field-index.ts';
import { intersect, subtract, universe, type Postings } from './postings.ts';
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

const universes = new WeakMap<FamilyStore, Postings>();

/**
 * Positions (ascending) matching every condition. Each condition is answered from its field's
 * index; the positive answers are intersected shortest first and the negative ones removed,
 * so the work follows the sizes of the answers, not of the family.
 */
export function evaluate(store: FamilyStore, conditions: readonly Condition[], language: string): Postings {
  const positive: Postings[] = [];
  const negative: Postings[] = [];
  for (const condition of conditions) {
    const index = store.index(condition.field, language);
    switch (condition.op) {
      case 'eq':
        positive.push(index.get(condition.value));
        break;
      case 'ne':
        negative.push(index.get(condition.value));
        break;
      case 'contains':
        positive.push(index.contains(condition.value));
        break;
      case 'not-contains':
        negative.push(index.contains(condition.value));
        break;
      case 'any':
        positive.push(index.any(condition.values));
        break;
      case 'all':
        positive.push(index.all(condition.values));
        break;
      case 'none':
        negative.push(index.any(condition.values));
        break;
      case 'range':
        positive.push(index.range(condition.range));
        break;
    }
  }
  let result: Postings;
  if (positive.length === 0) {
    result = universes.get(store) ?? universe(store.size);
    universes.set(store, result);
  } else {
    positive.sort((a, b) => a.length - b.length);
    result = positive[0]!;
    for (let i = 1; i < positive.length && result.length > 0; i++) result = intersect(result, positive[i]!);
  }
  for (const list of negative) {
    if (result.length === 0) break;
    if (list.length > 0) result = subtract(result, list);
  }
  return result;
}
