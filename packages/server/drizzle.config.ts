import { defineConfig } from 'drizzle-kit';

// `pnpm --filter @coinpurse/server db:generate --name <name>` diffs src/db/schema against the newest snapshot in
// drizzle/meta and writes the next migration with its snapshot (docs/architecture.md, "Changing the database").
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
