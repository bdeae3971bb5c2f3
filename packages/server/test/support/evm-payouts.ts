import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { Anvil, EVM_ACCOUNT, EVM_XPUB } from './anvil';

export { EVM_ACCOUNT, EVM_XPUB };
import { seedCoins } from './market';
import { type SignedTestApp, startTestAppWithSigner } from './signer-process';
import { loginAdmin } from './test-app';
import { supportTokens } from './wallet';

/** Anvil's dev account 1 (published test key): the hot address of the EVM payout tests. */
export const HOT_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const HOT_ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

export interface EvmPayoutSetup {
  anvil: Anvil;
  t: SignedTestApp;
  db: Database;
  payouts: PayoutsService;
  /** The admin's session token. */
  admin: string;
  close(): Promise<void>;
}

/**
 * The set-up every EVM payout test shares: a fresh anvil, the hot key (and with `sweeps`, the account's xprv) in a key
 * file only the signer process reads, the app on PostgreSQL with its signer, prices seeded and the coins supported,
 * the scheduled jobs stopped (the tests drive `runOnce`) and the network switched on for payouts.
 */
export async function startEvmPayouts(
  options: { env?: Record<string, string>; coins?: Record<string, string>; sweeps?: boolean; beforeApp?: (anvil: Anvil) => Promise<unknown> } = {},
): Promise<EvmPayoutSetup> {
  const anvil = await Anvil.start();
  const keyDir = mkdtempSync(join(tmpdir(), 'coinpurse-key-'));
  let t: SignedTestApp | undefined;
  const close = async () => {
    await t?.close();
    await anvil.close();
    rmSync(keyDir, { recursive: true, force: true });
  };
  try {
    await options.beforeApp?.(anvil);
    const keyFile = join(keyDir, 'ethereum.key');
    writeFileSync(keyFile, options.sweeps ? `${HOT_KEY}\n${EVM_ACCOUNT.privateExtendedKey}\n` : `${HOT_KEY}\n`);
    chmodSync(keyFile, 0o600);
    t = await startTestAppWithSigner({
      CHAIN_ETHEREUM_RPC_URL: anvil.rpcUrl,
      CHAIN_ETHEREUM_XPUB: EVM_XPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_CONFIRMATIONS: '3',
      CHAIN_ETHEREUM_POLL_SECONDS: '1',
      CHAIN_ETHEREUM_KEY_FILE: keyFile,
      ...options.env,
    });
    const coins = options.coins ?? { ethereum: '2500' };
    await seedCoins(t, coins);
    await supportTokens(t, Object.keys(coins));
    t.app.get(ChainWatcherService).stop();
    const payouts = t.app.get(PayoutsService);
    payouts.stop();
    const admin = (await loginAdmin(t.http)).token;
    await payouts.runOnce('ethereum');
    return { anvil, t, db: t.app.get<Database>(DATABASE), payouts, admin, close };
  } catch (error) {
    await close();
    throw error;
  }
}
