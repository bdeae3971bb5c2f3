import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { sql } from 'drizzle-orm';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { SignerRefusal } from '../../src/modules/payouts/node-wallet-signer';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { Anvil } from '../support/anvil';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { addTokenNetwork, supportTokens } from '../support/wallet';

/** The operator's deposit key: m/44'/60'/0' of the "abandon … about" test mnemonic. */
const XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')).derive(
  "m/44'/60'/0'",
).publicExtendedKey;
/** Anvil's dev account 1 (published test key): the hot address here. */
const HOT_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const CONFIRMATIONS = 3;

interface Tx {
  _id: string;
  status: string;
  txHash?: string;
  payoutState?: string;
  fee?: string;
  confirmations?: number;
}

/** ETH withdrawals paid from a local key file on a real anvil: EIP-1559, nonces reserved in the database. */
describe.each(DATABASE_KINDS)('ETH withdrawals paid on an anvil chain on %s', (kind) => {
  let anvil: Anvil;
  let t: TestApp;
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';
  const keyDir = mkdtempSync(join(tmpdir(), 'coinpurse-key-'));

  beforeAll(async () => {
    anvil = await Anvil.start();
    const keyFile = join(keyDir, 'ethereum.key');
    writeFileSync(keyFile, `${HOT_KEY}\n`);
    chmodSync(keyFile, 0o600);
    t = await startTestApp(kind, {
      CHAIN_ETHEREUM_RPC_URL: anvil.rpcUrl,
      CHAIN_ETHEREUM_XPUB: XPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_ETHEREUM_POLL_SECONDS: '1',
      CHAIN_ETHEREUM_KEY_FILE: keyFile,
    });
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1' });
    await supportTokens(t, ['bitcoin', 'ethereum', 'tether']);
    db = t.app.get(DATABASE);
    t.app.get(ChainWatcherService).stop();
    payouts = t.app.get(PayoutsService);
    payouts.stop();
    admin = (await loginAdmin(t.http)).token;
    await payouts.runOnce('ethereum');
  });

  afterAll(async () => {
    await t?.close();
    await anvil?.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const balanceOf = async (address: string) => BigInt(await anvil.rpc.call<string>('eth_getBalance', [address, 'latest']));
  const randomAddress = () => `0x${[...Array(40)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')}`;
  const withdrawal = async (address: string, sendUsd: number) => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'ethereum', amount: 250, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'eth' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: sendUsd, symbol: 'eth', coinAmount: String(sendUsd / 2500) } })
      .expect(201);
    return { customer, id: sent.body.transaction._id as string };
  };
  const approve = (id: string) => t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
  const history = async (token: string) => (await t.http.get('/api/user/get-transaction').set(bearer(token)).expect(200)).body as Tx[];

  it('an approved ETH withdrawal is signed from the key file (EIP-1559), sent, confirms and completes: the amount less the fee arrives', async () => {
    const to = randomAddress();
    const { customer, id } = await withdrawal(to, 100);
    await approve(id);
    const hotBefore = await balanceOf(HOT_ADDRESS);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    const [row] = (
      (await db.execute(
        sql`select state, txid, raw_tx as "rawTx", fee_base::text as fee, charged_fee_base::text as charged from payouts where transaction_id = ${id}`,
      )) as unknown as {
        rows: Array<{ state: string; txid: string; rawTx: string; fee: string; charged: string }>;
      }
    ).rows;
    expect(row.txid).toMatch(/^0x[0-9a-f]{64}$/);
    // The customer pays the network fee (21,000 gas at the quote) out of the amount.
    const charged = BigInt(row.charged);
    expect(charged).toBeGreaterThan(0n);
    expect(charged % 21_000n).toBe(0n);
    const paid = 4n * 10n ** 16n - charged;
    const onChain = await anvil.rpc.call<{ type: string; from: string; to: string; value: string; nonce: string }>('eth_getTransactionByHash', [row.txid]);
    expect(onChain).toMatchObject({ type: '0x2', from: HOT_ADDRESS, to, value: `0x${paid.toString(16)}` });
    await anvil.rpc.call('anvil_mine', ['0x2']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    expect(await balanceOf(to)).toBe(paid);
    const [tx] = await history(customer.token);
    expect(tx).toMatchObject({ _id: id, status: 'approved', payoutState: 'completed', txHash: row.txid, confirmations: 3 });
    // The fee recorded is the one paid (gas used × effective price): the hot address paid what the recipient got + fee.
    expect(tx.fee).toMatch(/^0\.\d{18}$/);
    const feeWei = BigInt(tx.fee!.replace('.', ''));
    expect(feeWei).toBeGreaterThan(0n);
    expect(hotBefore - (await balanceOf(HOT_ADDRESS))).toBe(paid + feeWei);
  });

  it('two withdrawals approved together get consecutive nonces reserved in the database; a forged request is refused', async () => {
    const nonceBefore = BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'pending']));
    const targets = [randomAddress(), randomAddress()];
    const ids: string[] = [];
    for (const to of targets) {
      const { id } = await withdrawal(to, 50);
      await approve(id);
      ids.push(id);
    }
    const pending = await withdrawal(randomAddress(), 50);
    await expect(
      payouts.signerOf('ethereum')!.sign({ transactionId: pending.id, network: 'ethereum', address: targets[0], amountBase: 2n * 10n ** 16n }, db),
    ).rejects.toThrow(SignerRefusal);
    expect(await payouts.runOnce('ethereum', { stopAfterSigning: true })).toMatchObject({ created: 2, signed: 2 });
    expect(BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'pending']))).toBe(nonceBefore);
    const stored = (
      (await db.execute(sql`select next_nonce::text as n from evm_nonces where network = 'ethereum'`)) as unknown as { rows: Array<{ n: string }> }
    ).rows;
    expect(BigInt(stored[0].n)).toBe(nonceBefore + 2n);
    await payouts.runOnce('ethereum');
    await anvil.rpc.call('anvil_mine', ['0x3']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 2 });
    for (const [i, to] of targets.entries()) {
      const [row] = (
        (await db.execute(sql`select charged_fee_base::text as charged from payouts where transaction_id = ${ids[i]}`)) as unknown as {
          rows: Array<{ charged: string }>;
        }
      ).rows;
      expect(await balanceOf(to)).toBe(2n * 10n ** 16n - BigInt(row.charged));
    }
    expect(BigInt(await anvil.rpc.call<string>('eth_getTransactionCount', [HOT_ADDRESS, 'latest']))).toBe(nonceBefore + 2n);
  });

  it('a USDT (ERC-20) withdrawal on ethereum without its contract set is not paid from the key: no payout, the signer refuses', async () => {
    await addTokenNetwork(t, 'tether', 'ethereum');
    const to = randomAddress();
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'tether', amount: 50, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'usdt' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(customer.token))
      .send({ transferData: { address: to, amount: 20, symbol: 'usdt', coinAmount: '20', network: 'ethereum' } })
      .expect(201);
    const id = sent.body.transaction._id as string;
    expect(sent.body.transaction.network).toBe('ethereum');
    await approve(id);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 0, signed: 0 });
    await expect(payouts.signerOf('ethereum')!.sign({ transactionId: id, network: 'ethereum', address: to, amountBase: 20n * 10n ** 18n }, db)).rejects.toThrow(
      'the withdrawal is of tether, this signer pays ethereum only',
    );
    expect(await balanceOf(to)).toBe(0n);
  });

  it('withdrawals approved before the network first paid out by itself (settled by hand) are never paid', async () => {
    await db.execute(sql`delete from payout_networks where network = 'ethereum'`);
    const to = randomAddress();
    const { id } = await withdrawal(to, 50);
    await approve(id);
    // The signer is switched on now: the network pays out by itself from this run on, not what was approved before.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 0, signed: 0 });
    const [row] = ((await db.execute(sql`select count(*)::int as n from payouts where transaction_id = ${id}`)) as unknown as { rows: Array<{ n: number }> })
      .rows;
    expect(row.n).toBe(0);
    expect(await balanceOf(to)).toBe(0n);
    // One approved after is paid.
    const after = await withdrawal(randomAddress(), 50);
    await approve(after.id);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
  });
});
