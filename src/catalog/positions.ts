/**
 * Each record's position by uuid, for a family store and the versions a write makes of it. A
 * write that adds a record must not copy every position (20,000 entries took 8 ms): the
 * positions of the version it starts from stay shared as `base`, the few added since sit in a
 * small map of their own, and both are folded into a new base once the added ones outgrow the
 * square root of the base, so an add copies about √n entries, amortized.
 *
 * @example
 * const positions = Positions.of(records).with('9f1c…', records.length);
 * positions.get('9f1c…'); // records.length
 */
export class Positions {
  private constructor(
    private readonly base: ReadonlyMap<string, number>,
    private readonly added: ReadonlyMap<string, number>,
  ) {}

  static of(records: readonly { uuid: string }[]): Positions {
    return new Positions(new Map(records.map((record, position) => [record.uuid, position])), new Map());
  }

  get(uuid: string): number | undefined {
    return this.added.get(uuid) ?? this.base.get(uuid);
  }

  /** These positions and `uuid` at `position`; this one is left as it is. */
  with(uuid: string, position: number): Positions {
    const added = new Map(this.added).set(uuid, position);
    if (added.size * added.size <= this.base.size + 1024) return new Positions(this.base, added);
    const base = new Map(this.base);
    for (const [key, value] of added) base.set(key, value);
    return new Positions(base, new Map());
  }
}
