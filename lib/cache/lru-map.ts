/**
 * A Map that keeps at most `maxEntries`: reading an entry makes it the newest, and setting one
 * past the limit drops the oldest. Map keeps insertion order, so "newest" is re-inserting.
 */
export class LruMap<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: Key): Value | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: Key, value: Value): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: Key): boolean {
    return this.entries.delete(key);
  }

  /** Drops every entry whose key matches. */
  deleteWhere(matches: (key: Key) => boolean): void {
    for (const key of [...this.entries.keys()]) if (matches(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
