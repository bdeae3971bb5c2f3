import { sql } from 'drizzle-orm';
import { DATABASE, type Database } from '../../src/db/database';
import type { TestApp } from './test-app';

/** Names of the uploaded images stored in the app's database. */
export async function storedImageNames(t: TestApp): Promise<string[]> {
  const db = t.app.get<Database>(DATABASE);
  const result = (await db.execute(sql`select name from stored_images order by name`)) as unknown as { rows: Array<{ name: string }> };
  return result.rows.map((row) => row.name);
}
