import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** A selection set as counted: its weight, and the response names it puts at its own level. */
interface Counted {
  weight: number;
  names: string[];
}

/**
 * What validating a document costs graphql-js, counted before it runs: every field selection
 * of every operation and fragment, each fragment spread expanded where it is spread (`...F ...F`
 * counts F twice; fragments spreading fragments multiply), plus, for a response name repeated
 * in one selection, one more for each earlier occurrence (the rule that fields must merge
 * compares every such pair, so 490 `overview { title }` weigh 120,000, not 980). Each fragment
 * is counted once and its count reused, and counting stops past `limit` (the answer is then
 * `limit + 1`): a document whose spreads expand to billions costs no more than its size to
 * count. A fragment spreading itself counts nothing the second time round (validation names
 * the cycle).
 *
 * @example
 * selectionWeight(parse('{ ...F ...F } fragment F on Query { overview { title } }'), 1000);
 * // 4 + 1 (the repeat) + 2 (the fragment)
 */
export function selectionWeight(document: DocumentNode, limit: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const counted = new Map<string, Counted>();
  const over: Counted = { weight: limit + 1, names: [] };

  const countFragment = (name: string): Counted => {
    const known = counted.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // An unknown fragment is validation's to name; a cycle weighs nothing while it is being counted.
    if (!fragment) return { weight: 0, names: [] };
    counted.set(name, { weight: 0, names: [] });
    const result = countSet(fragment.selectionSet);
    counted.set(name, result);
    return result;
  };
  /** A set's fields and what it spreads, its repeated names charged at this level. */
  const countSet = (set: SelectionSetNode | undefined): Counted => {
    let weight = 0;
    const names: string[] = [];
    const seen = new Map<string, number>();
    const add = (name: string) => {
      const before = seen.get(name) ?? 0;
      seen.set(name, before + 1);
      weight += before;
      names.push(name);
    };
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        weight += 1 + countSet(selection.selectionSet).weight;
        add(selection.alias?.value ?? selection.name.value);
      } else {
        const inner =
          selection.kind === Kind.INLINE_FRAGMENT
            ? countSet(selection.selectionSet)
            : countFragment(selection.name.value);
        weight += inner.weight;
        for (const name of inner.names) add(name);
      }
      if (weight > limit || names.length > limit) return over;
    }
    return { weight, names };
  };

  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) total += countSet(definition.selectionSet).weight;
    else if (definition.kind === Kind.FRAGMENT_DEFINITION) total += countFragment(definition.name.value).weight;
    if (total > limit) return limit + 1;
  }
  return total;
}
