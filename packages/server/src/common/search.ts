import { sql, type SQL } from 'drizzle-orm';
import { users } from '../db/schema';

/** `%term%` for LIKE, lower-cased, with LIKE's own wildcards escaped (searching "a_b" finds "a_b", not "axb"). */
export function containsPattern(term: string): string {
  return `%${term
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Customer name or email contains the term. The expression is the one of the trigram index
 * `users_search_trgm_idx` (migration 0001), so PostgreSQL with pg_trgm answers it from the index.
 */
export function userMatches(term: string): SQL {
  return sql`(lower(${users.name}) || ' ' || ${users.emailNormalized}) like ${containsPattern(term)}`;
}
