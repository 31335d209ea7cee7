import {
  GraphQLError,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { RepeatFilter } from '../lib/repeat-filter.ts';
import { selectionWeight } from './field-count.ts';
import { limitRules, parseWithin, type GraphQLLimits } from './limits.ts';

/** A query text checked once: its document, or the errors that refuse it. */
export type CheckedDocument =
  { document: DocumentNode; errors?: undefined; random: boolean } | { errors: readonly GraphQLError[] };

/**
 * What a checked document takes in memory per character of its text: the AST's nodes, their
 * locations and names, and the text as the key. Measured on the heap after a collection,
 * 20,000 distinct typical queries of 100 to 180 characters took 78 to 95 bytes a character
 * (10 to 14 KB each); rounded up.
 */
const BYTES_PER_CHARACTER = 100;
const ENTRY_BYTES = 600;

/** Whether the document asks for a random record: its answer must never be replayed. */
function asksRandom(document: DocumentNode): boolean {
  let random = false;
  visit(document, {
    Field(node) {
      if (node.name.value.startsWith('random_')) random = true;
    },
  });
  return random;
}

/**
 * Query texts parsed, weighed (`selectionWeight`) and validated once (the spec's rules, then depth and aliases), kept
 * by their text in a cache bounded by what the documents take in memory, from a text's second
 * request on (as answers are: ResponseCache). Refusals are kept too: a client repeating a
 * refused query costs a lookup.
 *
 * @example
 * const documents = new DocumentCache(schema, limits, 4 * 2 ** 20);
 * documents.check('{ overview { title } }'); // { document, random: false }
 */
export class DocumentCache {
  private readonly checked: LRUCache<string, CheckedDocument>;
  private readonly rules: readonly ValidationRule[];
  private readonly repeats = new RepeatFilter();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: GraphQLLimits,
    maxBytes: number,
  ) {
    this.rules = [...specifiedRules, ...limitRules(limits)];
    this.checked = new LRUCache({
      maxSize: Math.max(maxBytes, 1),
      sizeCalculation: (_, query) => ENTRY_BYTES + query.length * BYTES_PER_CHARACTER,
    });
  }

  /** Whether `query` was checked before and is still kept: `check` then costs a lookup. */
  known(query: string): boolean {
    return this.checked.has(query);
  }

  check(query: string): CheckedDocument {
    let found = this.checked.get(query);
    if (!found) {
      found = this.parseAndValidate(query);
      // A text over the size limit is refused by its length alone: not worth its place.
      if (query.length <= this.limits.maxDocumentBytes && this.repeats.seenBefore(query))
        this.checked.set(query, found);
    }
    return found;
  }

  private parseAndValidate(query: string): CheckedDocument {
    let document: DocumentNode;
    try {
      document = parseWithin(query, this.limits);
    } catch (error) {
      return { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] };
    }
    // Counted before the rules run: merging repeated fields costs graphql-js the square of their number.
    if (selectionWeight(document, this.limits.maxFields) > this.limits.maxFields) {
      return {
        errors: [
          new GraphQLError(
            `Field limit of ${this.limits.maxFields} exceeded, found more (fragments expanded where spread; a ` +
              `name repeated in one selection counts once more for each earlier occurrence).`,
          ),
        ],
      };
    }
    const errors = validate(this.schema, document, this.rules);
    return errors.length > 0 ? { errors } : { document, random: asksRandom(document) };
  }
}
