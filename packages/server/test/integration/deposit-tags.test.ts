import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DepositTagsRepository } from '../../src/modules/chain/deposit-tags.repository';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { bearer, signUp } from '../support/test-app';
import { startWalletApp, supportTokens, type WalletApp } from '../support/wallet';

/** The operator's shared deposit addresses on the memo networks (every customer pays the same one, with their tag). */
const XRP_ADDRESS = 'rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn';
const STELLAR_ADDRESS = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7';

interface TokenNetwork {
  network: string;
  name: string;
  address: string | null;
  depositNote: string | null;
  memo?: string;
  memoLabel?: string;
}

/**
 * Memo networks (issue 24): xrp and stellar have no node here and one shared deposit address per network; each
 * customer gets a destination tag (xrp) or memo (stellar) of their own on it, allocated once, unique per network,
 * shown by get-wallet-tokens, and admins find the customer of a deposit by it.
 */
describe.each(DATABASE_KINDS)('destination tags and memos on the memo networks, on %s', (kind) => {
  let t: WalletApp;
  let db: Database;

  beforeAll(async () => {
    t = await startWalletApp(kind);
    db = t.app.get(DATABASE);
    await seedCoins(t, { ripple: '0.5', stellar: '0.1' });
    await supportTokens(t, ['ripple', 'stellar']);
    for (const [coin, network, address] of [
      ['ripple', 'xrp', XRP_ADDRESS],
      ['stellar', 'stellar', STELLAR_ADDRESS],
    ]) {
      await db.execute(sql`update token_networks set address = ${address} where network = ${network}`);
      await db.execute(sql`update supported_tokens set address = ${address} where coin_id = ${coin} and deleted_at is null`);
    }
    t.app.get(ReferenceDataCache).invalidate();
  });

  afterAll(async () => {
    await t?.close();
  });

  const networksOf = async (token: string) => {
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{
      id: string;
      address: string | null;
      networks: TokenNetwork[];
    }>;
    return Object.fromEntries(tokens.map((row) => [row.id, row]));
  };
  const tagRows = async (userId: string) =>
    (
      (await db.execute(sql`select network, tag::text as tag from deposit_tags where user_id = ${userId} order by network`)) as unknown as {
        rows: Array<{ network: string; tag: string }>;
      }
    ).rows;
  const owner = (network: string, tag: string, token = t.admin) => t.http.get(`/api/admin/deposit-tags/${network}/${tag}`).set(bearer(token));

  it('gives each customer a tag of their own on the shared address, allocated once, shown with the network', async () => {
    const first = await signUp(t.http);
    const second = await signUp(t.http);
    const a = await networksOf(first.token);
    expect(a.ripple.networks).toEqual([
      { network: 'xrp', name: 'XRP', address: XRP_ADDRESS, depositNote: null, memo: expect.stringMatching(/^\d{9}$/), memoLabel: 'Destination tag' },
    ]);
    expect(a.stellar.networks).toEqual([
      { network: 'stellar', name: 'Stellar', address: STELLAR_ADDRESS, depositNote: null, memo: expect.stringMatching(/^\d{9}$/), memoLabel: 'Memo' },
    ]);
    // The address stays the operator's shared one; only the tag is the customer's.
    expect(a.ripple.address).toBe(XRP_ADDRESS);
    // A network without memos carries none.
    expect(a.bitcoin.networks[0]).not.toHaveProperty('memo');
    // Allocated once: the same tags every time.
    const again = await networksOf(first.token);
    expect(again.ripple.networks[0].memo).toBe(a.ripple.networks[0].memo);
    expect(again.stellar.networks[0].memo).toBe(a.stellar.networks[0].memo);
    expect(await tagRows(first._id)).toEqual([
      { network: 'stellar', tag: a.stellar.networks[0].memo },
      { network: 'xrp', tag: a.ripple.networks[0].memo },
    ]);
    // Another customer, another tag.
    const b = await networksOf(second.token);
    expect(b.ripple.networks[0].memo).toMatch(/^\d{9}$/);
    expect(b.ripple.networks[0].memo).not.toBe(a.ripple.networks[0].memo);
  });

  it('allocates one tag when a new customer lists their tokens several times at once', async () => {
    const customer = await signUp(t.http);
    const answers = await Promise.all(Array.from({ length: 5 }, () => networksOf(customer.token)));
    const memos = new Set(answers.map((answer) => answer.ripple.networks[0].memo));
    expect(memos.size).toBe(1);
    expect((await tagRows(customer._id)).filter((row) => row.network === 'xrp')).toEqual([{ network: 'xrp', tag: [...memos][0] }]);
  });

  it('gives no tag while the network has no deposit address (deposits are not set up there)', async () => {
    await db.execute(sql`update token_networks set address = null where network = 'stellar'`);
    t.app.get(ReferenceDataCache).invalidate();
    try {
      const customer = await signUp(t.http);
      const networks = await networksOf(customer.token);
      expect(networks.stellar.networks).toEqual([
        { network: 'stellar', name: 'Stellar', address: null, depositNote: 'Deposits are not set up for the Stellar network yet.' },
      ]);
      expect((await tagRows(customer._id)).map((row) => row.network)).toEqual(['xrp']);
    } finally {
      await db.execute(sql`update token_networks set address = ${STELLAR_ADDRESS} where network = 'stellar'`);
      t.app.get(ReferenceDataCache).invalidate();
    }
  });

  it('keeps tags unique per network: a tag taken by one customer is never given to another', async () => {
    const first = await signUp(t.http);
    const second = await signUp(t.http);
    const tag = (await networksOf(first.token)).ripple.networks[0].memo!;
    const repository = t.app.get(DepositTagsRepository);
    // The allocation's insert refuses a taken tag (it then draws again) …
    expect(await repository.insert(second._id, 'xrp', Number(tag))).toBe(false);
    // … the same number on the other network is another tag …
    expect(await repository.insert(second._id, 'stellar', Number(tag))).toBe(true);
    // … and the table itself refuses a second owner, and a second tag for one customer on a network.
    await expect(db.execute(sql`insert into deposit_tags (user_id, network, tag) values (${second._id}, 'xrp', ${Number(tag)})`)).rejects.toThrow();
    await expect(db.execute(sql`insert into deposit_tags (user_id, network, tag) values (${first._id}, 'xrp', 1)`)).rejects.toThrow();
    // Tags fit an XRP destination tag (32-bit unsigned), on the memo networks only.
    await expect(db.execute(sql`insert into deposit_tags (user_id, network, tag) values (${second._id}, 'xrp', 4294967296)`)).rejects.toThrow();
    await expect(db.execute(sql`insert into deposit_tags (user_id, network, tag) values (${second._id}, 'bitcoin', 5)`)).rejects.toThrow();
    // The second customer's own xrp tag is still drawn for them (not the taken one).
    const theirs = (await networksOf(second.token)).ripple.networks[0].memo;
    expect(theirs).toMatch(/^\d{9}$/);
    expect(theirs).not.toBe(tag);
  });

  it('lets an admin find the customer of a deposit by its tag, then record the deposit for them', async () => {
    const customer = await signUp(t.http);
    const networks = await networksOf(customer.token);
    const xrpTag = networks.ripple.networks[0].memo!;
    const stellarMemo = networks.stellar.networks[0].memo!;
    expect((await owner('xrp', xrpTag).expect(200)).body).toEqual({
      network: 'xrp',
      tag: xrpTag,
      label: 'Destination tag',
      userId: customer._id,
      name: customer.name,
      email: customer.email,
      active: true,
    });
    expect((await owner('stellar', stellarMemo).expect(200)).body).toMatchObject({ network: 'stellar', label: 'Memo', userId: customer._id });
    // Leading zeros and spaces are the same number.
    expect((await owner('xrp', `00${xrpTag}`).expect(200)).body.userId).toBe(customer._id);

    expect((await owner('xrp', '42').expect(404)).body.error).toBe('No customer has destination tag 42 on XRP.');
    expect((await owner('stellar', '42').expect(404)).body.error).toBe('No customer has memo 42 on Stellar.');
    expect((await owner('bitcoin', '42').expect(400)).body.error).toBe('Deposits on Bitcoin carry no destination tag or memo: use xrp or stellar.');
    expect((await owner('xrp', 'abc').expect(400)).body.error).toBe('A destination tag is a whole number from 0 to 4294967295.');
    expect((await owner('xrp', '4294967296').expect(400)).body.error).toBe('A destination tag is a whole number from 0 to 4294967295.');
    await owner('xrp', xrpTag, customer.token).expect(403);
    await t.http.get(`/api/admin/deposit-tags/xrp/${xrpTag}`).expect(401);

    // The deposit, recorded for the customer the tag named, on the memo network.
    const deposit = await t.http
      .post(`/api/crypto/deposit/${customer._id}`)
      .set(bearer(t.admin))
      .send({ amount: 50, status: 'approved', network: 'xrp' })
      .expect(201);
    expect(deposit.body).toMatchObject({ type: 'deposit', token: 'ripple', network: 'xrp', status: 'approved' });
  });
});
