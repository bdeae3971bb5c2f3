import { sql } from 'drizzle-orm';
import { type Hex, parseTransaction, type TransactionSerializableEIP1559 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database';
import type { PayoutsService } from '../../src/modules/payouts/payouts.service';
import type { Anvil } from '../support/anvil';
import { type EvmPayoutSetup, HOT_ADDRESS, HOT_KEY, startEvmPayouts } from '../support/evm-payouts';
import { SIGNER_DATABASE_KINDS, skipOnPglite } from '../support/signer-process';
import { bearer, signUp } from '../support/test-app';

const ETH = 10n ** 18n;

/**
 * The cold path on a real anvil (issue 25, "Hot and cold"): above CHAIN_ETHEREUM_HOT_LIMIT an ETH withdrawal waits for
 * a cold signature; the admin downloads an unsigned EIP-1559 transaction from the cold address (CHAIN_ETHEREUM_COLD_ADDRESS,
 * its key held by the test only) with the nonce reserved, signs it with viem and uploads it. Forged uploads — another
 * address, another amount, another signer, another nonce, unsigned — are refused with a 400 and an audit row.
 */
skipOnPglite('cold ETH payouts on an anvil chain');

describe.each(SIGNER_DATABASE_KINDS)('cold ETH payouts on an anvil chain on %s', () => {
  let anvil: Anvil;
  let setup: EvmPayoutSetup;
  let t: EvmPayoutSetup['t'];
  let db: Database;
  let payouts: PayoutsService;
  let admin = '';
  const coldKey = generatePrivateKey();
  const cold = privateKeyToAccount(coldKey);

  beforeAll(async () => {
    setup = await startEvmPayouts({
      env: { CHAIN_ETHEREUM_COLD_ADDRESS: cold.address, CHAIN_ETHEREUM_HOT_LIMIT: '1' },
      // The cold address holds 5 ETH.
      beforeApp: (chain) => chain.sendEth(cold.address, 5n * ETH),
    });
    ({ anvil, t, db, payouts, admin } = setup);
  });

  afterAll(async () => {
    await setup?.close();
  });

  const balanceOf = async (address: string) => BigInt(await anvil.rpc.call<string>('eth_getBalance', [address, 'latest']));
  const randomAddress = () => `0x${[...Array(40)].map(() => Math.floor(Math.random() * 16).toString(16)).join('')}`;
  const withdrawal = async (address: string, sendUsd: number) => {
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'ethereum', amount: sendUsd + 100, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'eth' })
      .expect(200);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(customer.token))
      .send({ transferData: { address, amount: sendUsd, symbol: 'eth' } })
      .expect(201);
    return { customer, id: sent.body.transaction._id as string };
  };
  const approve = (id: string) => t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: id, modification: 'approved' }).expect(200);
  const payoutOf = async (id: string) =>
    (
      (await db.execute(sql`select state, txid, raw_tx as "rawTx", cold_reason as "coldReason" from payouts where transaction_id = ${id}`)) as unknown as {
        rows: Array<{ state: string; txid: string | null; rawTx: string | null; coldReason: string | null }>;
      }
    ).rows[0];
  const download = (id: string) => t.http.post(`/api/admin/payouts/cold/${id}/unsigned`).set(bearer(admin));
  const upload = (id: string, signedTx: string) => t.http.post(`/api/admin/payouts/cold/${id}/signed`).set(bearer(admin)).send({ signedTx });

  it('a small withdrawal is paid hot; one above the hot limit is signed offline by the cold key and paid from the cold address', async () => {
    const small = await withdrawal(randomAddress(), 100);
    await approve(small.id);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 1, broadcast: 1 });
    await anvil.rpc.call('anvil_mine', ['0x2']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });

    const to = randomAddress();
    const { customer, id } = await withdrawal(to, 5000);
    await approve(id);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ created: 1, signed: 0, broadcast: 0 });
    expect(await payoutOf(id)).toMatchObject({ state: 'awaiting_cold_signature', coldReason: 'above the hot limit of 1 ETH per payout', txid: null });
    const [waiting] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<Record<string, unknown>>;
    expect(waiting).toMatchObject({ _id: id, status: 'approved', payoutState: 'awaiting_cold_signature' });

    const prepared = (await download(id).expect(200)).body as { unsignedTx: Hex; nonce: number; chainId: number; fee: string; from: string };
    expect(prepared).toMatchObject({ format: 'eip1559', from: cold.address, address: to, coinAmount: '2.000000000000000000', nonce: 0, chainId: 31337 });
    expect((await download(id).expect(200)).body.unsignedTx).toBe(prepared.unsignedTx);
    const unsigned = parseTransaction(prepared.unsignedTx) as TransactionSerializableEIP1559;
    expect(unsigned).toMatchObject({ type: 'eip1559', chainId: 31337, nonce: 0, value: 2n * ETH });
    expect(unsigned.to?.toLowerCase()).toBe(to);
    expect(BigInt(prepared.fee.replace('.', ''))).toBe(unsigned.gas! * unsigned.maxFeePerGas!);
    // The nonce is reserved for the cold address in the database.
    const nonces = (await db.execute(sql`select next_nonce::int as n from evm_nonces where address = ${cold.address.toLowerCase()}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(nonces.rows).toEqual([{ n: 1 }]);

    // Forged uploads: another address, another amount, another signer, another nonce, and the unsigned one.
    const attacker = randomAddress();
    const refused = async (signedTx: string) => (await upload(id, signedTx).expect(400)).body.error as string;
    expect(await refused(await cold.signTransaction({ ...unsigned, to: attacker as Hex }))).toBe(
      `The signed transaction pays 2.000000000000000000 to ${attacker}, not exactly the approved 2.000000000000000000 to ${to}.`,
    );
    expect(await refused(await cold.signTransaction({ ...unsigned, value: 3n * ETH }))).toBe(
      `The signed transaction pays 3.000000000000000000 to ${to}, not exactly the approved 2.000000000000000000 to ${to}.`,
    );
    expect(await refused(await cold.signTransaction({ ...unsigned, data: '0xa9059cbb' }))).toBe(
      `The signed transaction pays 2.000000000000000000 to ${to} with call data, not exactly the approved 2.000000000000000000 to ${to}.`,
    );
    const hot = privateKeyToAccount(HOT_KEY);
    expect(await refused(await hot.signTransaction(unsigned))).toBe(`The transaction is signed by ${hot.address}, not by the cold address ${cold.address}.`);
    expect(await refused(await cold.signTransaction({ ...unsigned, nonce: 7 }))).toBe(
      'The signed transaction has chain id 31337 and nonce 7; the prepared one has chain id 31337 and nonce 0.',
    );
    expect(await refused(await cold.signTransaction({ ...unsigned, maxFeePerGas: unsigned.maxFeePerGas! * 10n }))).toMatch(
      /^The signed transaction may pay a fee of up to 0\.\d{18}, more than the 0\.\d{18} prepared\.$/,
    );
    expect(await refused(prepared.unsignedTx)).toBe(
      'The transaction is not signed: sign the downloaded transaction with the cold key, then upload the signed one.',
    );
    expect(await refused('hello')).toBe('The upload is not a signed EIP-1559 transaction (0x02… in hex).');
    const audit = (await db.execute(
      sql`select count(*)::int as n from audit_log where action = 'chain.cold_payout_refused' and target_id = ${id}`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(audit.rows[0].n).toBe(8);
    expect(await payoutOf(id)).toMatchObject({ state: 'awaiting_cold_signature', txid: null });
    expect(await balanceOf(to)).toBe(0n);

    // The cold key signs the downloaded transaction itself: accepted, stored, then broadcast and confirmed as any payout.
    const coldBefore = await balanceOf(cold.address);
    const hotBefore = await balanceOf(HOT_ADDRESS);
    const signed = await cold.signTransaction(unsigned);
    const accepted = (await upload(id, signed).expect(200)).body as { state: string; txHash: string };
    expect(accepted.state).toBe('signed');
    expect(await payoutOf(id)).toMatchObject({ state: 'signed', txid: accepted.txHash, rawTx: signed });
    expect(await payouts.runOnce('ethereum')).toMatchObject({ broadcast: 1 });
    await anvil.rpc.call('anvil_mine', ['0x2']);
    expect(await payouts.runOnce('ethereum')).toMatchObject({ completed: 1 });
    expect(await payoutOf(id)).toMatchObject({ state: 'completed', txid: accepted.txHash });
    expect(await balanceOf(to)).toBe(2n * ETH);
    const [paid] = (await t.http.get('/api/user/get-transaction').set(bearer(customer.token)).expect(200)).body as Array<{ fee: string }>;
    expect(paid).toMatchObject({ _id: id, status: 'approved', payoutState: 'completed', txHash: accepted.txHash, confirmations: 3 });
    // Paid from the cold address (amount + the fee actually paid); the hot address paid nothing for it.
    expect(coldBefore - (await balanceOf(cold.address))).toBe(2n * ETH + BigInt(paid.fee.replace('.', '')));
    expect(await balanceOf(HOT_ADDRESS)).toBe(hotBefore);
    const onChain = await anvil.rpc.call<{ from: string; nonce: string }>('eth_getTransactionByHash', [accepted.txHash]);
    expect(onChain).toMatchObject({ from: cold.address.toLowerCase(), nonce: '0x0' });
  });
});
