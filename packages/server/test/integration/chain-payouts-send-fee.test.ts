import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import type { Anvil } from '../support/anvil';
import { type EvmPayoutSetup, startEvmPayouts } from '../support/evm-payouts';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { SIGNER_DATABASE_KINDS, skipOnPglite } from '../support/signer-process';
import { bearer, signUp } from '../support/test-app';
import { deployTestToken, setTokenContract } from '../support/test-token';

/** BIP84 account key m/84'/1'/0' of the "abandon … about" test mnemonic (litecoin deposits). */
const TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

interface Fee {
  estimatedFee: string | null;
  withdrawalFee: string;
  recipientGets: string | null;
  feePaidBy: string;
  refusal?: string;
}

/**
 * Issue 25, fees: the customer pays a native coin payout's network fee out of the amount, so a send the quoted fee
 * takes entirely is refused at Send (400, nothing held: no withdrawal, no journal entry, the balance as it was), with
 * the text the confirm step shows; an ERC-20 token's gas is the platform's (a fee of 0 to the customer). Real
 * litecoind -regtest and anvil; the LTC fee is the signer process's (its hot wallet "hot" funds the payment), so
 * PostgreSQL only; the payout jobs are stopped (nothing is signed here).
 */
skipOnPglite('a send its network fee would take entirely');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('a send its network fee would take entirely on %s', () => {
  let ltc: RegtestLitecoind;
  let setup: EvmPayoutSetup;
  let anvil: Anvil;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let hot: JsonRpcClient;
  let admin = '';

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    await ltc.node.call('createwallet', ['hot']);
    hot = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/hot`, rpcUrlForLogs: 'hot', timeoutMs: 30_000 });
    await ltc.send(await hot.call<string>('getnewaddress', ['', 'bech32']), '1');
    await ltc.mine(1);
    // One signer process holds the litecoin hot wallet ("hot", 1 LTC) and the EVM hot key.
    setup = await startEvmPayouts({
      coins: { litecoin: '80', ethereum: '2500', tether: '1' },
      env: { CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl, CHAIN_LITECOIN_XPUB: TPUB, CHAIN_LITECOIN_CHAIN: 'regtest', CHAIN_LITECOIN_WALLET: 'hot' },
    });
    ({ anvil, t, db, admin } = setup);
    const contract = await deployTestToken(anvil, 6, 10n ** 12n);
    await setTokenContract(t, admin, 'tether', 'ethereum', contract, anvil.accounts[2]);
  }, 180_000);

  afterAll(async () => {
    await setup?.close();
    await ltc?.close();
  });

  const funded = async (token: string, usd: number) => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token, amount: usd, type: 'yes', msg: 'test funding' })
      .expect(200);
    return customer;
  };
  const balances = async (token: string) => (await t.http.get('/api/user/get-user-balance').set(bearer(token)).expect(200)).body.balances as unknown[];
  const journal = async () => ((await db.execute(sql`select count(*)::int as n from journal_entries`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n;
  const feeOf = async (customer: string, tokenId: string, coinAmount: string) =>
    (await t.http.get(`/api/crypto/network-fee/${tokenId}`).query({ coinAmount }).set(bearer(customer)).expect(200)).body as Fee;

  it('LTC: an amount below the network fee is refused at Send with the fee in the message, nothing held; the confirm step says the same', async () => {
    const customer = await funded('litecoin', 40);
    const before = { balances: await balances(customer.token), journal: await journal() };
    // Fees are high: the hot wallet pays 0.01 LTC per 1,000 vbytes, about 0.0014 LTC for a payout — more than the
    // smallest LTC amount a customer can send (0.001 LTC, $0.08 at $80).
    await hot.call('settxfee', [0.01]);
    const fee = await feeOf(customer.token, 'litecoin', '0.001');
    expect(fee).toMatchObject({ feePaidBy: 'customer', recipientGets: '0.00000000' });
    const feeText = String(Number(fee.estimatedFee));
    expect(Number(fee.estimatedFee)).toBeGreaterThan(0.001);
    expect(fee.refusal).toBe(`The amount does not cover the network fee of ${feeText} LTC.`);
    const refused = await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address: await ltc.newAddress(), amount: 0.08, symbol: 'ltc' } })
      .expect(400);
    expect(refused.body).toEqual({ statusCode: 400, error: `The amount does not cover the network fee of ${feeText} LTC.` });
    // Nothing held: no withdrawal, no journal entry, the balance as it was.
    expect((await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body).toHaveLength(1);
    expect(await journal()).toBe(before.journal);
    expect(await balances(customer.token)).toEqual(before.balances);
    // An amount that covers it is taken (and held) as before.
    const covered = await feeOf(customer.token, 'litecoin', '0.125');
    expect(covered.refusal).toBeUndefined();
    await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address: await ltc.newAddress(), amount: 10, symbol: 'ltc' } })
      .expect(201);
    expect(await journal()).toBe(before.journal + 1);
    await hot.call('settxfee', [0]);
  });

  it("with the schedule's withdrawal fee: the confirm step's answer takes it off first, then the network fee; an amount it takes entirely is refused with its text", async () => {
    const customer = await funded('litecoin', 40);
    await t.http.put('/api/admin/fees/litecoin').set(bearer(admin)).send({ withdrawalFee: '0.001' }).expect(200);
    await t.http.put('/api/admin/fees/tether').set(bearer(admin)).send({ withdrawalFee: '0.5' }).expect(200);
    try {
      const fee = await feeOf(customer.token, 'litecoin', '0.125');
      expect(fee).toMatchObject({ feePaidBy: 'customer', withdrawalFee: '0.001' });
      expect(fee.refusal).toBeUndefined();
      const net = BigInt(Math.round(Number(fee.estimatedFee) * 1e8));
      expect(BigInt(Math.round(Number(fee.recipientGets) * 1e8))).toBe(12_400_000n - net);
      const small = await feeOf(customer.token, 'litecoin', '0.001');
      expect(small).toMatchObject({ recipientGets: '0.00000000', refusal: 'The amount does not cover the withdrawal fee of 0.001 LTC.' });
      await t.http
        .post('/api/crypto/send-crypto/litecoin')
        .set(bearer(customer.token))
        .send({ transferData: { address: await ltc.newAddress(), amount: 0.08, symbol: 'ltc' } })
        .expect(400)
        .expect((res) => expect(res.body.error).toBe(small.refusal));
      // ERC-20: the gas is the platform's, the customer pays the withdrawal fee only.
      const tether = await feeOf(customer.token, 'tether', '10');
      expect(tether).toMatchObject({ feePaidBy: 'platform', estimatedFee: '0', withdrawalFee: '0.5', recipientGets: '9.500000' });
    } finally {
      await t.http.put('/api/admin/fees/litecoin').set(bearer(admin)).send({ withdrawalFee: null }).expect(200);
      await t.http.put('/api/admin/fees/tether').set(bearer(admin)).send({ withdrawalFee: null }).expect(200);
    }
  });

  it('ETH: an amount below 21,000 gas at the quoted fee is refused at Send; tether (ERC-20): the platform pays the gas, a fee of 0 to the customer', async () => {
    const customer = await funded('ethereum', 50);
    const before = await journal();
    // $0.05 at $2,500 is 0.00002 ETH: less than 21,000 gas at anvil's base fee plus a tip.
    const fee = await feeOf(customer.token, 'ethereum', '0.00002');
    expect(fee).toMatchObject({ feePaidBy: 'customer', recipientGets: '0.000000000000000000' });
    expect(fee.refusal).toMatch(/^The amount does not cover the network fee of 0\.0000\d+ ETH\.$/);
    const refused = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(customer.token))
      .send({ transferData: { address: anvil.accounts[5], amount: 0.05, symbol: 'eth' } })
      .expect(400);
    expect(refused.body.error).toMatch(/^The amount does not cover the network fee of 0\.0000\d+ ETH\.$/);
    expect(await journal()).toBe(before);

    expect(await feeOf(customer.token, 'tether', '0.01')).toEqual({
      token: 'tether',
      network: 'ethereum',
      coinAmount: '0.010000',
      estimatedFee: '0',
      feeRate: null,
      targetBlocks: 1,
      recipientGets: '0.010000',
      feePaidBy: 'platform',
      withdrawalFee: '0',
    });
    // However small, a tether send is not refused for its fee.
    const holder = await funded('tether', 5);
    await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(holder.token))
      .send({ transferData: { address: anvil.accounts[6], amount: 0.01, symbol: 'usdt', coinAmount: '0.01', network: 'ethereum' } })
      .expect(201);
  });
});
