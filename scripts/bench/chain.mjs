// Deposits from the chain (issue 24): runs packages/server/test/measure/chain-deposits.measure.ts (vitest project
// "measure") against a real regtest litecoind and a real anvil — 100,000 addresses allocated (anchor: bare one-row
// insert transactions), 1,000 blocks caught up (anchor: the node reading them), a block of 2,000 transactions matched
// (anchor: getblock alone; unseen, then seen in the mempool first), crediting, the watcher's lag in steady state, and an
// anvil block of 2,000 payments half of them internal transfers (anchor: reading and tracing it alone).
// Env: BENCH_ADDRESSES (100000: the figure; tens of minutes on 2 shared cores), BENCH_BLOCK_TXS (2000),
// BENCH_CATCH_UP (1000); on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server) like the
// other benches, or on PGlite with BENCH_CHAIN_DB=pglite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BASE_URL, serverDir } from './harness.mjs';

if (!existsSync(process.env.LITECOIND ?? '/usr/bin/litecoind')) {
  console.log('chain: litecoind not installed (apt-get install -y litecoind): skipped');
  process.exit(0);
}
const env = { ...process.env };
if (process.env.BENCH_CHAIN_DB === 'pglite') delete env.TEST_DATABASE_URL;
else env.TEST_DATABASE_URL = BASE_URL;
const result = spawnSync('pnpm', ['exec', 'vitest', 'run', '--project', 'measure', 'test/measure/chain-deposits.measure.ts'], {
  cwd: serverDir,
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
