import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { Anvil, EVM_XPUB } from '../support/anvil';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

const CONFIRMATIONS = 3;
const ETH = 10n ** 18n;

describe.each(DATABASE_KINDS)('ETH deposits from an anvil chain on %s', (kind) => {
  let anvil: Anvil;
  let t: TestApp;
  let db: Database;
  let watcher: ChainWatcherService;

  beforeAll(async () => {
    anvil = await Anvil.start();
    t = await startTestApp(kind, {
      CHAIN_ETHEREUM_RPC_URL: anvil.rpcUrl,
      CHAIN_ETHEREUM_XPUB: EVM_XPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_ETHEREUM_POLL_SECONDS: '1',
    });
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1' });
    await supportTokens(t, ['bitcoin', 'ethereum', 'tether']);
    db = t.app.get(DATABASE);
    watcher = t.app.get(ChainWatcherService);
    watcher.stop();
  });

  afterAll(async () => {
    await t?.close();
    await anvil?.close();
  });

  const poll = () => watcher.pollOnce('ethereum');
  const ownAddress = async (token: string) => {
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{
      id: string;
      address: string;
      networks: Array<{ network: string; address: string; requiredConfirmations?: number }>;
    }>;
    const eth = tokens.find((x) => x.id === 'ethereum')!;
    expect(eth.networks).toEqual([{ network: 'ethereum', name: 'Ethereum', address: eth.address, depositNote: null, requiredConfirmations: CONFIRMATIONS }]);
    // Tether is an ERC-20 here without a contract set: it keeps the admin's address.
    expect(tokens.find((x) => x.id === 'tether')!.networks[0].requiredConfirmations).toBeUndefined();
    return eth.address;
  };
  const deposits = async (txid: string) =>
    (
      (await db.execute(
        sql`select state, confirmations, output_index as "outputIndex", amount_base::text as "amountBase" from chain_deposits where txid = ${txid}`,
      )) as unknown as {
        rows: Array<{ state: string; confirmations: number; outputIndex: number; amountBase: string }>;
      }
    ).rows;

  it('the first customer gets the BIP44 vector address 0x9858EfFD…; a transfer to it is credited once after 3 blocks, exact to the wei', async () => {
    const customer = await signUp(t.http);
    const address = await ownAddress(customer.token);
    expect(address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    await poll();
    const wei = 1_234_567_890_123_456_789n; // 1.234567890123456789 ETH
    const txid = await anvil.sendEth(address, wei);
    await poll();
    expect(await deposits(txid)).toEqual([{ state: 'confirming', confirmations: 1, outputIndex: -1, amountBase: wei.toString() }]);
    const [pending] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
    expect(pending).toMatchObject({ type: 'deposit', status: 'pending', network: 'ethereum', txHash: txid, confirmations: 1, requiredConfirmations: 3 });
    await anvil.mine(2);
    await poll();
    await poll();
    expect(await deposits(txid)).toEqual([expect.objectContaining({ state: 'credited', confirmations: 3 })]);
    const balance = (await db.execute(
      sql`select balance::text as balance from ledger_accounts where user_id = ${customer._id} and token = 'ethereum'`,
    )) as unknown as {
      rows: Array<{ balance: string }>;
    };
    expect(balance.rows[0].balance).toBe('1.234567890123456789');
    const admin = await loginAdmin(t.http);
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin.token)).expect(200)).body.ok).toBe(true);
  });

  it('a second customer gets the next index; an anvil reorg before credit sends the deposit back to seen, nothing credited', async () => {
    const customer = await signUp(t.http);
    const address = await ownAddress(customer.token);
    expect(address).not.toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    await poll();
    const txid = await anvil.sendEth(address, ETH / 2n);
    await poll();
    expect(await deposits(txid)).toEqual([expect.objectContaining({ state: 'confirming', confirmations: 1 })]);
    await anvil.reorg(1);
    const result = await poll();
    expect(result.rewoundTo).toBe((await anvil.height()) - 1);
    expect(await deposits(txid)).toEqual([expect.objectContaining({ state: 'seen', confirmations: 0 })]);
    await anvil.mine(CONFIRMATIONS);
    await poll();
    expect(await deposits(txid)).toEqual([expect.objectContaining({ state: 'seen' })]);
    const credited = (await db.execute(sql`select count(*)::int as n from journal_entries where reason like ${`%${txid}%`}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(credited.rows[0].n).toBe(0);
  });

  it('an ERC-20 token: edit-token sets its contract (decimals read from the chain), a Transfer to the customer is credited once', async () => {
    const admin = await loginAdmin(t.http);
    // The token contract, compiled from test/support/contracts/TestToken.sol: 6 decimals, 10^12 units to the deployer.
    const deployed = await anvil.sendData(TEST_TOKEN.bytecode + uint256(6n) + uint256(10n ** 12n));
    const contract = deployed.contractAddress!;
    const listed = async () =>
      (await t.http.get('/api/admin/get-tokens').set(bearer(admin.token)).expect(200)).body as Array<{
        _id: string;
        name: string;
        network: string;
        perCustomerAddresses: boolean;
      }>;
    const tether = (await listed()).find((row) => row.name === 'tether' && row.network === 'ethereum')!;
    // Watched on this node: ETH deposits go to each customer's own address; the token not yet (no contract).
    expect((await listed()).find((row) => row.name === 'ethereum')!.perCustomerAddresses).toBe(true);
    expect(tether.perCustomerAddresses).toBe(false);
    // Refused: a contract on a network without contracts, an address that is not a contract.
    await t.http
      .post('/api/crypto/add-token/')
      .set(bearer(admin.token))
      .send({ name: 'litecoin', address: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', contractAddress: contract })
      .expect(400);
    const notContract = await t.http
      .put('/api/admin/edit-token/')
      .set(bearer(admin.token))
      .send({ token: 'tether', tokenId: tether._id, address: anvil.accounts[1], contractAddress: anvil.accounts[2] })
      .expect(400);
    expect(notContract.body.error).toMatch(/did not answer decimals\(\)/);
    const edited = await t.http
      .put('/api/admin/edit-token/')
      .set(bearer(admin.token))
      .send({ token: 'tether', tokenId: tether._id, address: anvil.accounts[1], contractAddress: contract })
      .expect(200);
    expect(edited.body.token).toMatchObject({ name: 'tether', network: 'ethereum', contractAddress: contract });
    const stored = (await db.execute(sql`select contract_decimals from token_networks where id = ${tether._id}`)) as unknown as {
      rows: Array<{ contract_decimals: number }>;
    };
    expect(stored.rows[0].contract_decimals).toBe(6);

    const customer = await signUp(t.http);
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{
      id: string;
      address: string;
      networks: Array<{ network: string; address: string; requiredConfirmations?: number }>;
    }>;
    const eth = tokens.find((x) => x.id === 'ethereum')!;
    // One address per customer serves ETH and the token.
    expect(tokens.find((x) => x.id === 'tether')!.networks[0]).toMatchObject({
      network: 'ethereum',
      address: eth.address,
      requiredConfirmations: CONFIRMATIONS,
    });
    await poll();
    const transfer = await anvil.sendData(`0xa9059cbb${eth.address.slice(2).toLowerCase().padStart(64, '0')}${uint256(12_345_678n)}`, contract);
    await poll();
    const rows = await deposits(transfer.hash);
    expect(rows).toEqual([{ state: 'confirming', confirmations: 1, outputIndex: expect.any(Number), amountBase: '12345678' }]);
    expect(rows[0].outputIndex).toBeGreaterThanOrEqual(0);
    await anvil.mine(CONFIRMATIONS - 1);
    await poll();
    expect(await deposits(transfer.hash)).toEqual([expect.objectContaining({ state: 'credited' })]);
    await poll();
    const balance = (await db.execute(
      sql`select balance::text as balance from ledger_accounts where user_id = ${customer._id} and token = 'tether'`,
    )) as unknown as {
      rows: Array<{ balance: string }>;
    };
    expect(balance.rows[0].balance).toMatch(/^12\.345678(0*)$/);
    const [row] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body;
    expect(row).toMatchObject({ type: 'deposit', token: 'tether', status: 'approved', network: 'ethereum', txHash: transfer.hash });
    expect((await t.http.get('/api/admin/ledger/check').set(bearer(admin.token)).expect(200)).body.ok).toBe(true);
  });

  it('a transfer from a sanctioned sender (its `from`): flagged and the account frozen when mined, held once confirmed', async () => {
    const customer = await signUp(t.http);
    const address = (
      (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<{ id: string; address: string }>
    ).find((x) => x.id === 'ethereum')!.address;
    const admin = await loginAdmin(t.http);
    const sender = anvil.accounts[1];
    // Listed in capitals: matched as the network writes it (lowercase).
    await t.http
      .put('/api/admin/sanctions')
      .set(bearer(admin.token))
      .send({ list: `ethereum,0x${sender.slice(2).toUpperCase()}` })
      .expect(200);
    await poll();
    const txid = await anvil.sendEth(address, ETH / 4n, sender);
    await poll();
    const hits = (await db.execute(sql`select address, user_id as "userId" from sanctions_hits where txid = ${txid}`)) as unknown as { rows: unknown[] };
    expect(hits.rows).toEqual([{ address: sender.toLowerCase(), userId: customer._id }]);
    const frozen = (await db.execute(sql`select frozen_by as "frozenBy" from account_freezes where user_id = ${customer._id}`)) as unknown as {
      rows: unknown[];
    };
    expect(frozen.rows).toEqual([{ frozenBy: null }]);
    await anvil.mine(CONFIRMATIONS - 1);
    await poll();
    const held = (await db.execute(sql`select state, hold from chain_deposits where txid = ${txid}`)) as unknown as { rows: unknown[] };
    expect(held.rows).toEqual([{ state: 'held', hold: 'sanctions' }]);
    // Other senders still credit: the list is emptied for the tests after this one.
    await t.http.put('/api/admin/sanctions').set(bearer(admin.token)).send({ list: '# none' }).expect(200);
  });
});

/** The compiled test token (source beside it). */
const TEST_TOKEN = JSON.parse(readFileSync(join(__dirname, '../support/contracts/TestToken.json'), 'utf8')) as { bytecode: string };

/** One ABI-encoded uint256 word (hex, no 0x). */
function uint256(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}
