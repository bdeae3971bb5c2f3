// `pnpm bench`: runs every benchmark script beside this file in turn; each prints its own figures.
// Figures are for comparison on the same machine (load generator and server share its cores), never pass/fail.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const scripts = ['get-crypto.mjs', 'swaps.mjs', 'lighthouse.mjs'].filter(
  (name) => existsSync(join(here, name)) && (!only.length || only.some((o) => name.startsWith(o))),
);

let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script}`);
  const result = spawnSync(process.execPath, [join(here, script)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
