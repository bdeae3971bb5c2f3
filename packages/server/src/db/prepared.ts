import { type Placeholder, sql } from 'drizzle-orm';

/**
 * Hot lookups by a short list of ids (`id in ($1, …, $n)`) as prepared statements, one per list length: Drizzle builds
 * the SQL once instead of on every call, and PostgreSQL parses and plans it once per connection. Longer lists get
 * `undefined` (build the query as usual) so the cache stays small.
 */
export function preparedPerCount<T>(build: (placeholders: Placeholder[], count: number) => T, max = 4): (count: number) => T | undefined {
  const cache = new Map<number, T>();
  return (count) => {
    if (count < 1 || count > max) return undefined;
    let prepared = cache.get(count);
    if (!prepared) {
      prepared = build(
        Array.from({ length: count }, (_, i) => sql.placeholder(`id${i}`)),
        count,
      );
      cache.set(count, prepared);
    }
    return prepared;
  };
}

/** The values of `preparedPerCount`'s placeholders. */
export function idValues(ids: string[]): Record<string, string> {
  return Object.fromEntries(ids.map((id, i) => [`id${i}`, id]));
}
