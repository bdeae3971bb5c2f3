import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { bearer } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

async function count(t: WalletApp, table: 'journal_lines' | 'transactions' | 'notifications' | 'audit_log'): Promise<number> {
  const db = t.app.get<Database>(DATABASE);
  const result = (await db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0].n);
}

describe.each(DATABASE_KINDS)('wallet and ledger rules on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    if (t) await expectLedgerClean(t);
  });

  it('shows every supported token at zero for a new customer', async () => {
    const user = await newCustomer(t);
    const response = await t.http.get('/api/user/get-user-balance').set(bearer(user.token)).expect(200);
    expect(response.body.totalBalance).toBe(0);
    expect(response.body.balances.map((b: { token: string }) => b.token).sort()).toEqual(['bitcoin', 'ethereum', 'tether']);
    for (const b of response.body.balances) expect(b).toMatchObject({ balance: 0 });
  });

  it('adds and sets balances in USD worth, rounded down to the token decimals, visible as transactions and notifications', async () => {
    const user = await newCustomer(t);
    const add = await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'bitcoin', amount: '100.00', type: 'yes', msg: 'Welcome bonus', coinAmount: 'ignored', symbol: 'btc' })
      .expect(200);
    expect(add.body.message).toBe('Balance updated successfully');
    expect(add.body.balance).toMatchObject({ token: 'bitcoin', coinAmount: '0.00200000', balance: 100 });
    expect(add.body.transaction).toMatchObject({
      type: 'adjustment',
      status: 'approved',
      direction: 'in',
      coinAmount: '0.00200000',
      amount: 100,
      note: 'Welcome bonus',
      user: { name: user.name, email: user.email },
    });

    // 33.333333 USD of ethereum at 2500 = 0.0133333332 → 0.013333 (6 decimals, down)
    await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'Ethereum', amount: 33.333333, type: 'yes', msg: 'x' })
      .expect(200);
    // "no" sets the balance: 40 USD of bitcoin = 0.0008
    const set = await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'btc', amount: 40, type: 'no', msg: 'Correction' })
      .expect(200);
    expect(set.body.transaction).toMatchObject({ direction: 'out', coinAmount: '0.00120000', amount: 60 });
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00080000', ethereum: '0.013333', tether: '0.00' });
    const balance = await t.http.get('/api/user/get-user-balance').set(bearer(user.token)).expect(200);
    expect(balance.body.totalBalance).toBeCloseTo(40 + 33.3325, 6);
    expect(balance.body.balances[0]).toMatchObject({ token: 'bitcoin', balance: 40 });

    // set to zero is allowed
    await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'ethereum', amount: '0', type: 'no', msg: 'reset' })
      .expect(200);
    expect((await holdings(t, user.token)).ethereum).toBe('0.000000');

    const history = await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200);
    expect(history.body.map((x: { type: string; note: string }) => [x.type, x.note])).toEqual([
      ['adjustment', 'reset'],
      ['adjustment', 'Correction'],
      ['adjustment', 'x'],
      ['adjustment', 'Welcome bonus'],
    ]);
    const notifications = await t.http.get('/api/user/get-notifications').set(bearer(user.token));
    if (notifications.status === 200) expect(notifications.body.length).toBeGreaterThanOrEqual(4);
  });

  it.each([
    [{ amount: 10, type: 'yes', msg: 'm' }, 'All fields are required.'],
    [{ token: 'bitcoin', type: 'yes', msg: 'm' }, 'All fields are required.'],
    [{ token: 'bitcoin', amount: 10, msg: 'm' }, 'All fields are required.'],
    [{ token: '', amount: 10, type: 'yes' }, 'All fields are required.'],
    [{ token: 'bitcoin', amount: '', type: 'yes' }, 'All fields are required.'],
    [{ token: 'bitcoin', amount: 10, type: 'maybe' }, 'Type must be yes (add) or no (change).'],
    [{ token: 'dogecoin', amount: 10, type: 'yes' }, 'Unknown token "dogecoin". Use a supported token: bitcoin, ethereum, tether.'],
    [{ token: 'bitcoin', amount: 0, type: 'yes' }, 'Amount must be greater than 0.'],
    [{ token: 'bitcoin', amount: -5, type: 'no' }, 'Amount must be greater than 0.'],
  ])('refuses update-balance %j with 400 %s', async (body, message) => {
    const user = await newCustomer(t);
    const before = await count(t, 'journal_lines');
    const response = await t.http.post(`/api/admin/update-balance/${user._id}`).set(bearer(t.admin)).send(body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: message });
    expect(await count(t, 'journal_lines')).toBe(before);
  });

  it('answers 404 for an unknown customer and 403 for customers on admin routes', async () => {
    const user = await newCustomer(t);
    await t.http
      .post('/api/admin/update-balance/00000000-0000-4000-8000-000000000000')
      .set(bearer(t.admin))
      .send({ token: 'bitcoin', amount: 1, type: 'yes', msg: 'm' })
      .expect(404);
    await t.http.post('/api/admin/update-balance/not-a-uuid').set(bearer(t.admin)).send({ token: 'bitcoin', amount: 1, type: 'yes', msg: 'm' }).expect(404);
    const adminId = (await t.http.get('/api/user/me').set(bearer(t.admin)).expect(200)).body._id;
    await t.http.post(`/api/admin/update-balance/${adminId}`).set(bearer(t.admin)).send({ token: 'bitcoin', amount: 1, type: 'yes', msg: 'm' }).expect(404);
    await t.http.post(`/api/admin/update-balance/${user._id}`).set(bearer(user.token)).send({ token: 'bitcoin', amount: 1, type: 'yes', msg: 'm' }).expect(403);
    await t.http.get('/api/admin/transaction').set(bearer(user.token)).expect(403);
    await t.http.get('/api/admin/ledger/check').set(bearer(user.token)).expect(403);
    await t.http.get('/api/user/get-users').set(bearer(user.token)).expect(403);
    await t.http
      .post('/api/crypto/deposit/' + user._id)
      .set(bearer(user.token))
      .send({ amount: 1, status: 'approved', network: 'bitcoin' })
      .expect(403);
    await t.http.post('/api/crypto/swap').set(bearer(t.admin)).send({ amount: 1, from: 'bitcoin', to: 'ethereum' }).expect(403);
    await t.http.get('/api/user/get-user-balance').expect(401);
  });

  it('sends: recomputes the coin amount from its own price, holds the funds, records a pending withdrawal and notifies', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const response = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '10', symbol: 'btc', coinAmount: '999' } })
      .expect(201);
    expect(response.body.message).toBe('Sent and Pending Check Status in History');
    expect(response.body.transaction).toMatchObject({
      type: 'withdrawal',
      status: 'pending',
      coinAmount: '0.00020000',
      amount: 10,
      address: ADDRESSES.bitcoin,
      network: 'bitcoin',
      token: 'bitcoin',
      price: '50000',
    });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00180000');
    const tether = await newCustomer(t);
    await fund(t, tether._id, 'tether', 50);
    const trc = await t.http
      .post('/api/crypto/send-crypto/tether')
      .set(bearer(tether.token))
      .send({ transferData: { address: ADDRESSES.tetherTron, amount: 12.345, symbol: 'usdt', coinAmount: '12' } })
      .expect(201);
    expect(trc.body.transaction).toMatchObject({ coinAmount: '12.34', network: 'tron', amount: 12.34 });
  });

  it.each([
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: 1000 }, 'Insufficient BTC balance'],
    ['ethereum', { address: ADDRESSES.ethereum, amount: 1 }, 'Insufficient ETH balance'],
    ['bitcoin', { address: ADDRESSES.ethereum, amount: 1 }, 'This is not a valid Bitcoin address.'],
    [
      'ethereum',
      { address: '0xDE709F2102306220921060314715629080e2fb77', amount: 1 },
      'This Ethereum address has an invalid checksum (check for a mistyped character).',
    ],
    ['dogecoin', { address: ADDRESSES.ethereum, amount: 1 }, '"dogecoin" is not a supported token.'],
    ['bitcoin', { address: '', amount: 1 }, 'Address is required.'],
    ['bitcoin', { address: ADDRESSES.bitcoin }, 'Amount is required.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: 'NaN' }, 'Amount must be a plain decimal number, like 12.50.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: 'Infinity' }, 'Amount must be a plain decimal number, like 12.50.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: -5 }, 'Amount must be greater than 0.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: '-5' }, 'Amount must be greater than 0.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: 0 }, 'Amount must be greater than 0.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: '0.00' }, 'Amount must be greater than 0.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: '1e3' }, 'Amount must be a plain decimal number, like 12.50.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: 1e21 }, 'Amount must be a plain decimal number, like 12.50.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: '1.123456789' }, 'Amount can have at most 8 decimal places.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: '9'.repeat(40) }, 'Amount is too large.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: true }, 'Amount must be a number.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: { $gt: 0 } }, 'Amount must be a number.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: '0.00000001' }, 'The amount is below the smallest BTC unit that can be sent.'],
    ['bitcoin', { address: ADDRESSES.bitcoin, amount: 1, extra: 1 }, 'Unknown field "transferData.extra".'],
  ])('refuses send of %s %j with 400 %s, changing nothing', async (tokenId, transferData, message) => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const before = [await count(t, 'journal_lines'), await count(t, 'transactions'), await count(t, 'notifications')];
    const response = await t.http.post(`/api/crypto/send-crypto/${tokenId}`).set(bearer(user.token)).send({ transferData }).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: message });
    expect([await count(t, 'journal_lines'), await count(t, 'transactions'), await count(t, 'notifications')]).toEqual(before);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00200000');
  });

  it('answers NUL characters and odd shapes with 400, never 500', async () => {
    const NUL_REFUSED = 'The request contains characters that are not allowed.';
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    expect(
      (
        await t.http
          .post('/api/crypto/send-crypto/%00')
          .set(bearer(user.token))
          .send({ transferData: { address: ADDRESSES.bitcoin, amount: 1 } })
          .expect(400)
      ).body.error,
    ).toBe(NUL_REFUSED);
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 1, from: 'bit\u0000coin', to: 'ethereum' }).expect(400);
    expect((await t.http.get('/api/admin/transaction?token=%00').set(bearer(t.admin)).expect(400)).body.error).toBe(NUL_REFUSED);
    expect(
      (
        await t.http
          .post(`/api/admin/update-balance/${user._id}`)
          .set(bearer(t.admin))
          .send({ token: 'bitcoin', amount: 1, type: 'yes', msg: 'a\u0000b' })
          .expect(400)
      ).body.error,
    ).toBe(NUL_REFUSED);
    for (const transferData of ['x', null, [], 5]) {
      expect((await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(user.token)).send({ transferData }).expect(400)).body.error).toBe(
        'Transfer data is required.',
      );
    }
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send([]).expect(400);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00200000');
  });

  it('refuses a send without transferData', async () => {
    const user = await newCustomer(t);
    const response = await t.http.post('/api/crypto/send-crypto/bitcoin').set(bearer(user.token)).send({ address: ADDRESSES.bitcoin, amount: 1 }).expect(400);
    expect(response.body.error).toMatch(/Transfer data is required\.|Unknown field/);
  });

  it('swaps atomically at server prices and reports the executed quantities', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    const response = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 100, from: 'bitcoin', to: 'ethereum' }).expect(201);
    expect(response.body).toMatchObject({
      message: 'Swap successful',
      amount: 100,
      from: { token: 'bitcoin', coinAmount: '0.00200000', price: '50000' },
      to: { token: 'ethereum', coinAmount: '0.040000', price: '2500' },
    });
    expect(response.body.transaction).toMatchObject({
      type: 'swap',
      status: 'approved',
      swap: { fromToken: 'bitcoin', toToken: 'ethereum', toCoinAmount: '0.040000' },
    });
    // 33.33 USD of ethereum → 0.013332 ETH → 33.33 USD → tether 33.33
    const second = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: '33.33', from: 'ethereum', to: 'tether' }).expect(201);
    expect(second.body.from.coinAmount).toBe('0.013332');
    expect(second.body.to.coinAmount).toBe('33.33');
    expect(await holdings(t, user.token)).toEqual({ bitcoin: '0.01800000', ethereum: '0.026668', tether: '33.33' });
  });

  it.each([
    [{ amount: 10, from: 'bitcoin', to: 'bitcoin' }, 'Choose two different tokens to swap.'],
    [{ amount: 10, from: 'bitcoin', to: 'dogecoin' }, '"dogecoin" is not a supported token.'],
    [{ amount: 10, from: 'nope', to: 'bitcoin' }, '"nope" is not a supported token.'],
    [{ amount: 5000, from: 'bitcoin', to: 'ethereum' }, 'Insufficient BTC balance'],
    [{ amount: 10, from: 'ethereum', to: 'bitcoin' }, 'Insufficient ETH balance'],
    [{ amount: '1E2', from: 'bitcoin', to: 'ethereum' }, 'Amount must be a plain decimal number, like 12.50.'],
    [{ amount: 10, from: 'bitcoin' }, 'Choose the token to swap to.'],
    [{ from: 'bitcoin', to: 'ethereum' }, 'Amount is required.'],
  ])('refuses swap %j with 400 %s', async (body, message) => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 1000);
    const before = await count(t, 'journal_lines');
    const response = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send(body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: message });
    expect(await count(t, 'journal_lines')).toBe(before);
  });

  it('credits a deposit only while approved, and refuses to leave approved once the funds are gone', async () => {
    const user = await newCustomer(t);
    const pending = await t.http
      .post(`/api/crypto/deposit/${user._id}`)
      .set(bearer(t.admin))
      .send({ amount: 250, status: 'pending', network: 'bitcoin' })
      .expect(201);
    expect(pending.body).toMatchObject({
      type: 'deposit',
      status: 'pending',
      network: 'bitcoin',
      coinAmount: '0.00500000',
      amount: 250,
      user: { email: user.email },
    });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00000000');
    const modify = (modification: string, expected = 200) =>
      t.http.post('/api/admin/modify-transaction/').set(bearer(t.admin)).send({ tId: pending.body._id, modification }).expect(expected);
    const approved = await modify('approved');
    expect(approved.body).toMatchObject({ message: 'Status updated successfully', changed: true, transaction: { status: 'approved' } });
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00500000');
    expect((await modify('approved')).body.changed).toBe(false);
    await modify('rejected');
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00000000');
    await modify('pending');
    await modify('approved');
    // spend most of it: leaving approved must now fail with 409 and change nothing
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 200, from: 'bitcoin', to: 'tether' }).expect(201);
    const refused = await modify('rejected', 409);
    expect(refused.body.error).toBe('The customer no longer holds the 0.00500000 BTC this deposit credited, so it cannot leave approved.');
    const history = await t.http.get('/api/admin/transaction').set(bearer(t.admin)).query({ userId: user._id, type: 'deposit' }).expect(200);
    expect(history.body[0].status).toBe('approved');

    const direct = await t.http
      .post(`/api/crypto/deposit/${user._id}`)
      .set(bearer(t.admin))
      .send({ amount: '10', status: 'approved', network: 'Tether' })
      .expect(201);
    expect(direct.body).toMatchObject({ network: 'ethereum', coinAmount: '10.00' });
    expect((await holdings(t, user.token)).tether).toBe('210.00');
  });

  it.each([
    [{ amount: 10, status: 'done', network: 'bitcoin' }, 'Status must be pending, approved or rejected.'],
    [{ amount: 10, status: 'approved', network: 'dogecoin' }, 'No supported token is on Dogecoin. Use a supported token: bitcoin, ethereum, tether.'],
    [
      { amount: 10, status: 'approved', network: 'no-such-chain' },
      'Unknown network "no-such-chain". Use a supported token (bitcoin, ethereum, tether) or a network id (bitcoin, ethereum, bsc, polygon, arbitrum, avalanche, tron, solana, xrp, litecoin, dogecoin, cardano, stellar, bitcoin-cash).',
    ],
    [{ amount: 10, status: 'approved' }, 'Network is required.'],
    [{ amount: 'abc', status: 'approved', network: 'bitcoin' }, 'Amount must be a plain decimal number, like 12.50.'],
    [{ status: 'approved', network: 'bitcoin' }, 'Amount is required.'],
  ])('refuses deposit %j with 400 %s', async (body, message) => {
    const user = await newCustomer(t);
    const response = await t.http.post(`/api/crypto/deposit/${user._id}`).set(bearer(t.admin)).send(body).expect(400);
    expect(response.body.error).toBe(message);
  });

  it('moves a withdrawal through every status: hold, release, settle, re-hold; 409 when funds are short', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'ethereum', 100);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: 60, symbol: 'eth', coinAmount: '0.024' } })
      .expect(201);
    const id = sent.body.transaction._id;
    const modify = (modification: string, expected = 200) =>
      t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: id, modification }).expect(expected);
    expect((await holdings(t, user.token)).ethereum).toBe('0.016000');
    await modify('rejected');
    expect((await holdings(t, user.token)).ethereum).toBe('0.040000');
    await modify('approved');
    expect((await holdings(t, user.token)).ethereum).toBe('0.016000');
    await modify('pending');
    expect((await holdings(t, user.token)).ethereum).toBe('0.016000');
    await modify('rejected');
    expect((await holdings(t, user.token)).ethereum).toBe('0.040000');
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 50, from: 'ethereum', to: 'tether' }).expect(201);
    const refused = await modify('pending', 409);
    expect(refused.body.error).toBe('The customer no longer holds the 0.024000 ETH this withdrawal needs, so it cannot be put back to pending.');
    expect((await modify('approved', 409)).body.error).toMatch(/cannot be approved\.$/);

    const liabilities = await t.http.get('/api/admin/ledger/liabilities').set(bearer(t.admin)).expect(200);
    expect(liabilities.body.tokens.find((x: { token: string }) => x.token === 'ethereum')).toBeTruthy();

    const notes = await t.http.get('/api/user/get-notifications').set(bearer(user.token));
    if (notes.status === 200)
      expect(notes.body.map((n: { status?: string }) => n.status).filter(Boolean)).toEqual(expect.arrayContaining(['pending', 'approved', 'rejected']));
    const db = t.app.get<Database>(DATABASE);
    const audit = (await db.execute(
      sql`select before, after from audit_log where action = 'transaction.status' and target_id = ${id} order by id`,
    )) as unknown as { rows: Array<{ before: { status: string }; after: { status: string } }> };
    expect(audit.rows.map((r) => `${r.before.status}>${r.after.status}`)).toEqual([
      'pending>rejected',
      'rejected>approved',
      'approved>pending',
      'pending>rejected',
    ]);
  });

  it('refuses modify-transaction on swaps and adjustments, unknown ids, bad statuses, and a stale expectedStatus', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const swap = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(201);
    expect(
      (await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: swap.body.transaction._id, modification: 'rejected' }).expect(409))
        .body.error,
    ).toBe('A swap has no status to change.');
    expect(
      (
        await t.http
          .post('/api/admin/modify-transaction')
          .set(bearer(t.admin))
          .send({ tId: '00000000-0000-4000-8000-000000000000', modification: 'rejected' })
          .expect(404)
      ).body.error,
    ).toBe('Transaction not found.');
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: 'x', modification: 'rejected' }).expect(404);
    expect(
      (await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: swap.body.transaction._id, modification: 'done' }).expect(400)).body
        .error,
    ).toBe('Status must be pending, approved or rejected.');
    const dep = await t.http
      .post(`/api/crypto/deposit/${user._id}`)
      .set(bearer(t.admin))
      .send({ amount: 5, status: 'pending', network: 'bitcoin' })
      .expect(201);
    const stale = await t.http
      .post('/api/admin/modify-transaction')
      .set(bearer(t.admin))
      .send({ tId: dep.body._id, modification: 'approved', expectedStatus: 'rejected' })
      .expect(409);
    expect(stale.body.error).toBe('This transaction was changed meanwhile: it is now pending. Reload and try again.');
  });

  it('voids: reverses the effect, hides it from lists, keeps it in the ledger; 409 when impossible; 404 twice', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const swap = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 50, from: 'bitcoin', to: 'ethereum' }).expect(201);
    const sent = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.bitcoinLegacy, amount: 20, symbol: 'btc', coinAmount: '0' } })
      .expect(201);
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00060000', ethereum: '0.020000' });
    const lines = await count(t, 'journal_lines');
    const deleted = await t.http.delete(`/api/crypto/delete-trx/${swap.body.transaction._id}`).set(bearer(t.admin)).expect(200);
    expect(deleted.body.message).toBe('Transaction deleted successfully');
    expect(await holdings(t, user.token)).toMatchObject({ bitcoin: '0.00160000', ethereum: '0.000000' });
    expect(await count(t, 'journal_lines')).toBe(lines + 4);
    await t.http.delete(`/api/crypto/delete-trx/${swap.body.transaction._id}`).set(bearer(t.admin)).expect(404);
    await t.http.post('/api/admin/modify-transaction').set(bearer(t.admin)).send({ tId: swap.body.transaction._id, modification: 'rejected' }).expect(404);
    await t.http.delete(`/api/crypto/delete-trx/${sent.body.transaction._id}`).set(bearer(t.admin)).expect(200);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00200000');
    const visible = await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200);
    expect(visible.body.map((x: { _id: string }) => x._id)).not.toContain(swap.body.transaction._id);
    expect(visible.body.map((x: { type: string }) => x.type)).toEqual(['adjustment']);

    // the adjustment funded 0.002 BTC; spend it, then voiding the adjustment is impossible
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 90, from: 'bitcoin', to: 'tether' }).expect(201);
    const conflict = await t.http.delete(`/api/crypto/delete-trx/${visible.body[0]._id}`).set(bearer(t.admin)).expect(409);
    expect(conflict.body.error).toBe('This transaction cannot be deleted: the customer no longer holds the BTC it would take back.');
    await t.http.delete('/api/crypto/delete-trx/not-an-id').set(bearer(t.admin)).expect(404);
  });

  it('lists history newest first with keyset pages (cursor header), filters, and the spec shape', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 1000);
    for (let i = 1; i <= 5; i++) await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: i, from: 'tether', to: 'bitcoin' }).expect(201);
    const first = await t.http.get('/api/user/get-transaction').set(bearer(user.token)).query({ limit: '2' }).expect(200);
    expect(first.body.map((x: { amount: number }) => x.amount)).toEqual([5, 4]);
    const tx = first.body[0];
    expect(Object.keys(tx)).toEqual(
      expect.arrayContaining(['_id', 'user', 'createdAt', 'type', 'address', 'network', 'amount', 'status', 'token', 'coinAmount']),
    );
    expect(tx.user).toEqual({ name: user.name, email: user.email });
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toBeTruthy();
    const second = await t.http.get('/api/user/get-transaction').set(bearer(user.token)).query({ limit: '2', cursor }).expect(200);
    expect(second.body.map((x: { amount: number }) => x.amount)).toEqual([3, 2]);
    const third = await t.http
      .get('/api/user/get-transaction')
      .set(bearer(user.token))
      .query({ limit: '2', cursor: second.headers['x-next-cursor'] })
      .expect(200);
    expect(third.body.map((x: { type: string }) => x.type)).toEqual(['swap', 'adjustment']);
    expect(third.headers['x-next-cursor']).toBeUndefined();
    const filtered = await t.http.get('/api/user/get-transaction').set(bearer(user.token)).query({ type: 'adjustment' }).expect(200);
    expect(filtered.body).toHaveLength(1);
    expect((await t.http.get('/api/user/get-transaction').set(bearer(user.token)).query({ token: 'ethereum' }).expect(200)).body).toEqual([]);
    expect((await t.http.get('/api/user/get-transaction').set(bearer(user.token)).query({ status: 'pending' }).expect(200)).body).toEqual([]);
    for (const [query, message] of [
      [{ limit: '0' }, 'Limit must be a whole number from 1 to 200.'],
      [{ limit: '201' }, 'Limit must be a whole number from 1 to 200.'],
      [{ limit: 'abc' }, 'Limit must be a whole number from 1 to 200.'],
      [{ cursor: 'zzz' }, 'The cursor is not valid.'],
      [{ type: 'gift' }, 'Type must be deposit, withdrawal, swap or adjustment.'],
      [{ status: 'done' }, 'Status must be pending, approved or rejected.'],
    ] as const) {
      expect((await t.http.get('/api/user/get-transaction').set(bearer(user.token)).query(query).expect(400)).body.error).toBe(message);
    }
    // another customer sees none of it; the admin sees it
    const other = await newCustomer(t);
    expect((await t.http.get('/api/user/get-transaction').set(bearer(other.token)).expect(200)).body).toEqual([]);
    const admin = await t.http.get('/api/admin/transaction').set(bearer(t.admin)).query({ userId: user._id }).expect(200);
    expect(admin.body).toHaveLength(6);
  });

  it('exports the history as CSV with the USD value at the time', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    await t.http
      .post(`/api/admin/update-balance/${user._id}`)
      .set(bearer(t.admin))
      .send({ token: 'tether', amount: 5, type: 'yes', msg: '=HYPERLINK("http://evil")' })
      .expect(200);
    await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 25.5, from: 'bitcoin', to: 'ethereum' }).expect(201);
    const response = await t.http.get('/api/user/export-transactions').set(bearer(user.token)).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const rows = response.text.trim().split('\r\n');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain('"USD amount at the time"');
    expect(rows[3]).toContain('"swap"');
    expect(rows[3]).toContain('"25.50"');
    expect(rows[3]).toContain('"0.00051000"');
    expect(rows[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('lists customers with balances for the admin, without admins or deactivated accounts, with pages', async () => {
    const a = await newCustomer(t);
    await fund(t, a._id, 'bitcoin', 100);
    const response = await t.http.get('/api/user/get-users').set(bearer(t.admin)).query({ limit: '200' }).expect(200);
    const entry = response.body.find((u: { _id: string }) => u._id === a._id);
    expect(entry).toMatchObject({ _id: a._id, name: a.name, email: a.email });
    expect(entry.balances).toEqual(expect.arrayContaining([expect.objectContaining({ token: 'Bitcoin', balance: 100, tokenId: 'bitcoin' })]));
    expect(response.body.some((u: { email: string }) => u.email === 'admin@test.local')).toBe(false);
    const db = t.app.get<Database>(DATABASE);
    await db.execute(sql`update users set deactivated_at = now() where id = ${a._id}`);
    const after = await t.http.get('/api/user/get-users').set(bearer(t.admin)).query({ limit: '200' }).expect(200);
    expect(after.body.some((u: { _id: string }) => u._id === a._id)).toBe(false);
    const page = await t.http.get('/api/user/get-users').set(bearer(t.admin)).query({ limit: '1' }).expect(200);
    expect(page.body).toHaveLength(1);
    const next = await t.http.get('/api/user/get-users').set(bearer(t.admin)).query({ limit: '1', cursor: page.headers['x-next-cursor'] }).expect(200);
    expect(next.body[0]._id).not.toBe(page.body[0]._id);
  });

  it('replays a keyed request, refuses the key with another body (422), and scopes keys per caller', async () => {
    const user = await newCustomer(t);
    const other = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    await fund(t, other._id, 'bitcoin', 100);
    const body = { amount: 10, from: 'bitcoin', to: 'ethereum' };
    const first = await t.http.post('/api/crypto/swap').set(bearer(user.token)).set('Idempotency-Key', 'swap-1').send(body).expect(201);
    const again = await t.http.post('/api/crypto/swap').set(bearer(user.token)).set('Idempotency-Key', 'swap-1').send(body).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00180000');
    const different = await t.http
      .post('/api/crypto/swap')
      .set(bearer(user.token))
      .set('Idempotency-Key', 'swap-1')
      .send({ ...body, amount: 11 })
      .expect(422);
    expect(different.body.error).toBe('This Idempotency-Key was already used with a different request. Use a new key for a new request.');
    await t.http.post('/api/crypto/swap').set(bearer(other.token)).set('Idempotency-Key', 'swap-1').send(body).expect(201);
    expect((await holdings(t, other.token)).bitcoin).toBe('0.00180000');
    // a refused request is replayed as refused
    const short = await t.http
      .post('/api/crypto/swap')
      .set(bearer(user.token))
      .set('Idempotency-Key', 'swap-2')
      .send({ ...body, amount: 1000 })
      .expect(400);
    await fund(t, user._id, 'bitcoin', 2000);
    const replayedShort = await t.http
      .post('/api/crypto/swap')
      .set(bearer(user.token))
      .set('Idempotency-Key', 'swap-2')
      .send({ ...body, amount: 1000 })
      .expect(400);
    expect(replayedShort.body).toEqual(short.body);
    expect((await t.http.post('/api/crypto/swap').set(bearer(user.token)).set('Idempotency-Key', ' ').send(body).expect(400)).body.error).toBe(
      'The Idempotency-Key header must be 1 to 255 visible characters.',
    );
    // deposit key: same key for another customer path is another request
    await t.http
      .post(`/api/crypto/deposit/${user._id}`)
      .set(bearer(t.admin))
      .set('Idempotency-Key', 'dep-1')
      .send({ amount: 10, status: 'approved', network: 'tether' })
      .expect(201);
    await t.http
      .post(`/api/crypto/deposit/${other._id}`)
      .set(bearer(t.admin))
      .set('Idempotency-Key', 'dep-1')
      .send({ amount: 10, status: 'approved', network: 'tether' })
      .expect(422);
    const replayDeposit = await t.http
      .post(`/api/crypto/deposit/${user._id}`)
      .set(bearer(t.admin))
      .set('Idempotency-Key', 'dep-1')
      .send({ amount: 10, status: 'approved', network: 'tether' })
      .expect(201);
    expect(replayDeposit.headers['idempotent-replayed']).toBe('true');
    expect((await holdings(t, user.token)).tether).toBe('10.00');
  });
});

describe('money operations refuse stale prices in production', () => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp('pglite', {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-secret-that-is-long-enough-1234567890',
      ENCRYPTION_KEY: 'ab'.repeat(32),
      // The test funds through the admin API with a password-only admin.
      ADMIN_REQUIRE_2FA: 'false',
      PRICE_MAX_AGE_SECONDS: '600',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with a clear message and changes nothing', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'bitcoin', 100);
    const db = t.app.get<Database>(DATABASE);
    await db.execute(sql`update coins set last_updated = now() - interval '1 hour' where id = 'ethereum'`);
    const lines = await count(t, 'journal_lines');
    const swap = await t.http.post('/api/crypto/swap').set(bearer(user.token)).send({ amount: 10, from: 'bitcoin', to: 'ethereum' }).expect(503);
    expect(swap.body.error).toBe('The ETH price is out of date. Please try again in a minute.');
    await t.http
      .post('/api/crypto/send-crypto/ethereum')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.ethereum, amount: 1 } })
      .expect(503);
    await t.http.post(`/api/crypto/deposit/${user._id}`).set(bearer(t.admin)).send({ amount: 10, status: 'approved', network: 'ethereum' }).expect(503);
    expect(await count(t, 'journal_lines')).toBe(lines);
    expect((await holdings(t, user.token)).bitcoin).toBe('0.00200000');
    await expectLedgerClean(t);
  });
});
