import type { Condition } from './filter.ts';
import { filterPositions } from './filter.ts';
import { reorder, type Direction } from './order.ts';
import { intersect, type Postings } from './postings.ts';
import type { FamilyStore } from './store.ts';

/** What a list asks of a family: conditions, search words and an order. */
export interface ListRequest {
  conditions: readonly Condition[];
  /** Normalized search words (see `words`); every one must match. */
  search?: readonly string[];
  sort?: { field: string; direction: Direction };
}

/**
 * `positions` (ascending) reordered by `field`: ties by uuid, records lacking the field last.
 *
 * @example
 * sortPositions(store, store.all(), 'birth_date', 'desc', 'en-US');
 */
export function sortPositions(
  store: FamilyStore,
  positions: Postings,
  field: string,
  direction: Direction,
  language: string,
): Postings {
  return reorder(positions, store.sortOrder(field, direction, language));
}

/**
 * The records a list asks for, in the order it is served: filter (every condition), then
 * search (every word), then the field asked for, else search rank, else file order. Each step
 * is a function over the store's indexes; none calls back into its caller.
 *
 * @example
 * listPositions(store, { conditions: [], search: ['sao'], sort: { field: 'name', direction: 'asc' } }, 'pt-BR');
 */
export function listPositions(store: FamilyStore, request: ListRequest, language: string): Postings {
  let positions = filterPositions(store, request.conditions, language);
  const search = request.search && store.searchIndex(language);
  if (search) positions = intersect(positions, search.match(request.search!));
  if (request.sort) return sortPositions(store, positions, request.sort.field, request.sort.direction, language);
  return search ? search.ranked(positions, request.search!) : positions;
}
