/**
 * A Map that keeps only the `capacity` most recently set entries (the oldest is dropped first). For per-instance
 * caches of facts that a guard re-checks in the database, so a stale or evicted entry costs a round trip, never a
 * wrong answer.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    // Re-inserted at the end: the most recently set entry is the last one dropped.
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
