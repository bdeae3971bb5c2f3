// Deposits from the chain (issue 24): runs packages/server/test/measure/chain-deposits.measure.ts (vitest project
// "measure") against a real regtest litecoind — addresses allocated, a block of 2,000 payments matched, 1,000 blocks
// caught up, crediting, and the watcher's lag in steady state. Env: BENCH_ADDRESSES (100000: the figure; takes
// minutes), BENCH_BLOCK_TXS (2000), BENCH_CATCH_UP (1000); TEST_DATABASE_URL set → PostgreSQL, else PGlite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { serverDir } from './harness.mjs';

if (!existsSync(process.env.LITECOIND ?? '/usr/bin/litecoind')) {
  console.log('chain: litecoind not installed (apt-get install -y litecoind): skipped');
  process.exit(0);
}
const result = spawnSync('pnpm', ['exec', 'vitest', 'run', '--project', 'measure', 'test/measure/chain-deposits.measure.ts'], {
  cwd: serverDir,
  stdio: 'inherit',
  env: process.env,
});
process.exit(result.status ?? 1);
