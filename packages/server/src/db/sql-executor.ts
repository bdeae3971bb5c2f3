import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * What code that names its tables itself needs of a database handle or an open transaction, whatever schema it was
 * opened with: the API's `Database`/`Tx` (src/db/database.ts) and the signer's handle (opened without the API's schema)
 * both fit. No relational queries (`db.query`): those need the schema.
 */
// Any schema: only the query builders and execute are used.
export type SqlExecutor = Pick<PgDatabase<PgQueryResultHKT, any>, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
