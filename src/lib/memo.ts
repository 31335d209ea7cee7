/** How much a memo keeps. */
export interface MemoOptions {
  /** Most arguments remembered; past it the memo starts over. */
  entries: number;
  /** Longest argument remembered (longer ones are computed every time). */
  maxLength?: number;
}

/**
 * `compute` remembered per argument, for values computed from a request header that clients
 * send in a handful of spellings (an address, `Accept`, `Accept-Encoding`): bounded by
 * `entries` arguments of at most `maxLength` characters, so made-up values cannot grow it.
 *
 * @example
 * const prefersHtml = memo((accept) => parse(accept).html, { entries: 1000, maxLength: 200 });
 */
export function memo<T>(
  compute: (argument: string) => T,
  { entries, maxLength = Infinity }: MemoOptions,
): (argument: string) => T {
  const known = new Map<string, T>();
  return (argument) => {
    let value = known.get(argument);
    if (value === undefined) {
      value = compute(argument);
      if (argument.length > maxLength) return value;
      if (known.size >= entries) known.clear();
      known.set(argument, value);
    }
    return value;
  };
}
