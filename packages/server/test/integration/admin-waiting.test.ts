// What waits for an admin (issue 31, item 7): the dashboard's counts of withdrawals to review, to pay by hand, awaiting
// funds or a cold signature, deposits to review and approvals, each equal to what its screen lists.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { WithdrawalQueues } from '../../src/modules/payouts/withdrawal-queues';
import { EVM_XPUB } from '../support/anvil';
import { TPUB } from '../support/chain-e2e';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { ADDRESSES, addTokenNetwork, supportTokens } from '../support/wallet';

const QUEUES = {
  review: 'withdrawalsToReview',
  'manual-payout': 'withdrawalsToPayByHand',
  'awaiting-funds': 'payoutsAwaitingFunds',
  'cannot-sign': 'payoutsNotSigned',
  'cold-signature': 'payoutsAwaitingColdSignature',
} as const;

type Waiting = Record<(typeof QUEUES)[keyof typeof QUEUES] | 'depositsToReview' | 'approvalsWaiting', number>;

const rows = async <T>(db: Database, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The dashboard's counts, each checked against the list its link opens (the same ids, the count of them). */
async function waitingOf(t: TestApp, admin: string): Promise<Waiting & { ids: Record<keyof typeof QUEUES, string[]> }> {
  const waiting = (await t.http.get('/api/admin/dashboard').set(bearer(admin)).expect(200)).body.waiting as Waiting;
  const ids = {} as Record<keyof typeof QUEUES, string[]>;
  for (const [queue, field] of Object.entries(QUEUES) as Array<[keyof typeof QUEUES, keyof Waiting]>) {
    const list = (await t.http.get(`/api/admin/transaction?waiting=${queue}&limit=200`).set(bearer(admin)).expect(200)).body as Array<{ _id: string }>;
    expect(list.length, `${queue}: the list and the count`).toBe(waiting[field]);
    ids[queue] = list.map((row) => row._id).sort();
  }
  const approvals = (await t.http.get('/api/admin/approvals?status=pending').set(bearer(admin)).expect(200)).body as unknown[];
  expect(approvals.length).toBe(waiting.approvalsWaiting);
  return { ...waiting, ids };
}

describe.each(DATABASE_KINDS)('what waits for an admin, without a signer, on %s', (kind) => {
  let t: TestApp;
  let db: Database;
  let admin: string;

  beforeAll(async () => {
    // Four-eyes from $500 (one action, or this admin's actions summed over the window).
    t = await startTestApp(kind, { APPROVAL_THRESHOLD_USD: '500' });
    db = t.app.get(DATABASE);
    await seedCoins(t, { bitcoin: '50000' });
    await supportTokens(t, ['bitcoin']);
    admin = (await loginAdmin(t.http)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts pending withdrawals no signer pays as to pay by hand, deposits to review and approvals, and lists each', async () => {
    const empty = await waitingOf(t, admin);
    expect(empty).toMatchObject({
      withdrawalsToReview: 0,
      withdrawalsToPayByHand: 0,
      payoutsAwaitingFunds: 0,
      payoutsNotSigned: 0,
      payoutsAwaitingColdSignature: 0,
      depositsToReview: 0,
      approvalsWaiting: 0,
    });
    const customer = await signUp(t.http);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: 300, type: 'yes', msg: 'funding' })
      .expect(200);
    const send = async (usd: number) =>
      (
        await t.http
          .post('/api/crypto/send-crypto/bitcoin')
          .set(bearer(customer.token))
          .send({ transferData: { address: ADDRESSES.bitcoin, amount: usd } })
          .expect(201)
      ).body.transaction._id as string;
    const [first, second, third] = [await send(100), await send(150), await send(25)];

    // Bitcoin has no signer here: each pending withdrawal is the admin's to pay by hand, none is "to review".
    let waiting = await waitingOf(t, admin);
    expect(waiting).toMatchObject({ withdrawalsToReview: 0, withdrawalsToPayByHand: 3, approvalsWaiting: 0 });
    expect(waiting.ids['manual-payout']).toEqual([first, second, third].sort());

    // Paid by hand and approved with its hash: it waits for nobody.
    const hash = 'a'.repeat(64);
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: first, modification: 'approved', txHash: hash }).expect(200);
    // Approving the second would take this admin's actions over $500 in the window: it waits in Approvals instead, and
    // counts there only.
    const held = await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: second, modification: 'approved' }).expect(202);
    expect(held.body.approvalId ?? held.body._id).toBeTruthy();
    // Given back to the customer: nothing to pay.
    waiting = await waitingOf(t, admin);
    expect(waiting).toMatchObject({ withdrawalsToPayByHand: 1, approvalsWaiting: 1 });
    expect(waiting.ids['manual-payout']).toEqual([third]);
    await t.http.post('/api/admin/modify-transaction').set(bearer(admin)).send({ tId: third, modification: 'rejected' }).expect(200);

    // A credited deposit whose block was orphaned (as the watcher flags it), and one an admin decided already.
    for (const resolution of [null, 'kept']) {
      await db.execute(sql`insert into chain_deposits (network, txid, output_index, user_id, token, address, amount_base, amount, confirmations,
          required_confirmations, state, review, review_resolution, reviewed_at)
        values ('litecoin', ${`${resolution ?? 'open'}`.padEnd(64, '0')}, 0, ${customer._id}, 'litecoin', 'ltc1qexample', 150000000, 1.5, 0, 3, 'credited',
          'orphaned_after_credit', ${resolution}, ${resolution ? new Date().toISOString() : null}::timestamptz)`);
    }
    waiting = await waitingOf(t, admin);
    expect(waiting).toMatchObject({ withdrawalsToReview: 0, withdrawalsToPayByHand: 0, depositsToReview: 1, approvalsWaiting: 1 });
    // The deposits to review screen lists the undecided one first, the count matches its open rows.
    const reviews = (await t.http.get('/api/admin/chain/deposit-reviews').set(bearer(admin)).expect(200)).body as Array<{ resolution: string | null }>;
    expect(reviews.filter((review) => review.resolution === null)).toHaveLength(1);
    expect((await rows<{ n: number }>(db, sql`select count(*)::int as n from transactions where type = 'withdrawal'`))[0].n).toBe(3);
  });

  it('refuses an unknown queue with a 400 that names the choices', async () => {
    const response = await t.http.get('/api/admin/transaction?waiting=everything').set(bearer(admin)).expect(400);
    expect(response.body.error).toBe('Waiting must be review, manual-payout, awaiting-funds, cannot-sign or cold-signature.');
  });
});

// A network with a signer needs PostgreSQL (the signer process reads the withdrawals itself). No signer runs here: the
// payout job is stopped and its rows are written as it writes them, so each queue can be put together exactly.
describe.skipIf(!process.env.TEST_DATABASE_URL)('what waits for an admin, with signers on litecoin and ethereum, on PostgreSQL', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let customer: string;

  beforeAll(async () => {
    const dead = 'http://127.0.0.1:9';
    t = await startTestApp('postgres', {
      CHAIN_LITECOIN_RPC_URL: dead,
      CHAIN_LITECOIN_XPUB: TPUB,
      CHAIN_LITECOIN_CHAIN: 'regtest',
      CHAIN_LITECOIN_SIGNER_URL: dead,
      CHAIN_ETHEREUM_RPC_URL: dead,
      CHAIN_ETHEREUM_XPUB: EVM_XPUB,
      CHAIN_ETHEREUM_CHAIN: 'regtest',
      CHAIN_ETHEREUM_SIGNER_URL: dead,
      SIGNER_TOKEN: 's'.repeat(40),
    });
    t.app.get(ChainWatcherService).stop();
    t.app.get(PayoutsService).stop();
    db = t.app.get(DATABASE);
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', litecoin: '80', chainlink: '10' });
    await supportTokens(t, ['bitcoin', 'ethereum', 'tether', 'litecoin', 'chainlink']);
    // Tether has its contract on ethereum (the signer pays it), chainlink has none (nobody pays it).
    await db.execute(
      sql`update token_networks set contract_address = '0xdAC17F958D2ee523a2206206994597C13D831ec7', contract_decimals = 6 where network = 'ethereum' and token_id = (select id from supported_tokens where coin_id = 'tether' and deleted_at is null)`,
    );
    await addTokenNetwork(t, 'chainlink', 'ethereum');
    admin = (await loginAdmin(t.http)).token;
    customer = (await signUp(t.http))._id;
    // Ethereum and litecoin paid by themselves from a minute ago (the job's first run, at start, enabled them).
    await db.execute(
      sql`insert into payout_networks (network, enabled_at) values ('litecoin', now() - interval '1 minute'), ('ethereum', now() - interval '1 minute')
        on conflict (network) do update set enabled_at = excluded.enabled_at`,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A withdrawal row as the send and the admin's approval leave it (the ledger is not what this test reads). */
  const withdrawal = async (token: string, network: string, status: 'pending' | 'approved', extra: { details?: object; updatedAt?: string } = {}) => {
    const [row] = await rows<{ id: string }>(
      db,
      sql`insert into transactions (user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, details, updated_at)
        values (${customer}, 'withdrawal', ${token}, ${network}, 'somewhere', 1, 1, 1, ${status}, 'out', ${JSON.stringify(extra.details ?? {})}::jsonb,
          ${extra.updatedAt ?? new Date().toISOString()}::timestamptz)
        returning id`,
    );
    return row.id;
  };
  const payout = (transactionId: string, network: string, state: string, lastError: string | null = null) =>
    db.execute(
      sql`insert into payouts (transaction_id, network, address, amount_base, state, required_confirmations, cold_reason, last_error)
        values (${transactionId}, ${network}, 'somewhere', 100, ${state}, 3, ${state === 'awaiting_cold_signature' ? 'above the hot limit' : null}, ${lastError})`,
    );

  it('sorts each open withdrawal into the queue of whoever acts next, and the walk uses the open-withdrawals index', async () => {
    const review = [
      await withdrawal('litecoin', 'litecoin', 'pending'),
      await withdrawal('tether', 'ethereum', 'pending'),
      await withdrawal('ethereum', 'ethereum', 'pending'),
    ];
    const manual = [
      // No signer on bitcoin; tether on tron is not the ethereum signer's; chainlink has no contract on ethereum.
      await withdrawal('bitcoin', 'bitcoin', 'pending'),
      await withdrawal('tether', 'tron', 'pending'),
      await withdrawal('chainlink', 'ethereum', 'pending'),
      // Approved since ethereum pays by itself, but no payout will ever come: the signer cannot pay it.
      await withdrawal('chainlink', 'ethereum', 'approved'),
    ];
    const funds = await withdrawal('litecoin', 'litecoin', 'approved');
    await payout(funds, 'litecoin', 'awaiting_funds');
    const cold = await withdrawal('ethereum', 'ethereum', 'approved');
    await payout(cold, 'ethereum', 'awaiting_cold_signature');
    // The signer could not sign it (its hot wallet is locked): tried again each run, until an operator unlocks it.
    const unsigned = await withdrawal('litecoin', 'litecoin', 'approved');
    await payout(unsigned, 'litecoin', 'approved', 'the hot wallet is locked: an operator must unlock it');
    // Waiting for nobody: approved and about to get its payout (the job's next run); approved before the network paid by
    // itself, or on a network without a signer (settled by hand, the hash being optional); on the chain (a txHash);
    // being signed and sent.
    await withdrawal('litecoin', 'litecoin', 'approved');
    await withdrawal('chainlink', 'ethereum', 'approved', { updatedAt: '2020-01-01T00:00:00Z' });
    await withdrawal('bitcoin', 'bitcoin', 'approved');
    await withdrawal('litecoin', 'litecoin', 'approved', { details: { txHash: 'b'.repeat(64), payoutState: 'broadcast' } });
    const signing = await withdrawal('ethereum', 'ethereum', 'approved');
    await payout(signing, 'ethereum', 'approved');

    const waiting = await waitingOf(t, admin);
    expect(waiting).toMatchObject({
      withdrawalsToReview: 3,
      withdrawalsToPayByHand: 4,
      payoutsAwaitingFunds: 1,
      payoutsNotSigned: 1,
      payoutsAwaitingColdSignature: 1,
    });
    expect(waiting.ids.review).toEqual(review.sort());
    expect(waiting.ids['manual-payout']).toEqual(manual.sort());
    expect(waiting.ids['awaiting-funds']).toEqual([funds]);
    expect(waiting.ids['cold-signature']).toEqual([cold]);
    expect(waiting.ids['cannot-sign']).toEqual([unsigned]);

    // The conditions imply the partial index's predicate: the planner can walk it (sequential scans off to ask).
    const queues = t.app.get(WithdrawalQueues);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rows<{ 'QUERY PLAN': string }>(tx as unknown as Database, sql`explain select count(*) from transactions where ${queues.condition('review')}`);
    });
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain('transactions_open_withdrawals_idx');
  });
});
