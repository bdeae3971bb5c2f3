import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_REFUSED_MESSAGE } from '@coinpurse/contract';
import { DATABASE, type Database } from '../../src/db/database';
import { SanctionsListCache } from '../../src/modules/compliance/sanctions-list.cache';
import { SanctionsService } from '../../src/modules/compliance/sanctions.service';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, startTestApp } from '../support/test-app';
import { ADDRESSES, expectLedgerClean, fund, holdings, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Sanctions screening (issue 35): the list from SANCTIONS_LIST_FILE (reloaded when it changes) or an admin's upload,
 * kept in the database; a send or an address-book entry to a listed address refused with a neutral message and flagged
 * for the operator; matches case-normalised per network. With two instances on PostgreSQL, both screen with one list.
 */
async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

const LISTED_ETH = '0x8589427373D6D84E98730D7795D8f6f8731FDA16';
const LISTED_BTC = ADDRESSES.bitcoin.toUpperCase();

describe.each(DATABASE_KINDS)('sanctions screening on %s', (kind) => {
  let t: WalletApp;
  let db: Database;
  let file: string;

  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'sanctions-')), 'sanctions.csv');
    writeFileSync(file, `network,address\n# test list\nethereum,${LISTED_ETH}\nbitcoin,${LISTED_BTC}\n`);
    t = await startWalletApp(kind, { SANCTIONS_LIST_FILE: file });
    db = t.app.get(DATABASE);
  }, 180_000);
  afterAll(async () => {
    if (t) await expectLedgerClean(t);
    await t?.close();
  });

  const send = (token: string, coin: string, address: string) =>
    t.http
      .post(`/api/crypto/send-crypto/${coin}`)
      .set(bearer(token))
      .send({ transferData: { address, amount: '10' } });

  it('loads the file at start: the list in force, per network', async () => {
    const list = (await t.http.get('/api/admin/sanctions').set(bearer(t.admin)).expect(200)).body;
    expect(list).toMatchObject({
      source: 'file',
      entries: 2,
      file,
      fileError: null,
      networks: [
        { network: 'bitcoin', entries: 1 },
        { network: 'ethereum', entries: 1 },
      ],
    });
  });

  it('refuses a send to a listed address in any letter case (EVM, bech32), neutrally, flags it, and moves nothing', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    await fund(t, user._id, 'bitcoin', 100);
    const before = await holdings(t, user.token);
    // Listed in mixed case (EIP-55), sent in lowercase; listed in uppercase bech32, sent in lowercase.
    expect((await send(user.token, 'tether', LISTED_ETH.toLowerCase()).expect(403)).body).toEqual({ statusCode: 403, error: ADDRESS_REFUSED_MESSAGE });
    expect((await send(user.token, 'bitcoin', ADDRESSES.bitcoin).expect(403)).body.error).toBe(ADDRESS_REFUSED_MESSAGE);
    expect(await holdings(t, user.token)).toEqual(before);
    expect((await t.http.get('/api/user/get-transaction?type=withdrawal').set(bearer(user.token)).expect(200)).body).toEqual([]);
    // Another address goes.
    await send(user.token, 'tether', ADDRESSES.ethereum).expect(201);

    const hits = (await t.http.get('/api/admin/sanctions/hits?kind=send').set(bearer(t.admin)).expect(200)).body;
    expect(hits.filter((h: { userId: string }) => h.userId === user._id)).toEqual([
      expect.objectContaining({ kind: 'send', network: 'bitcoin', address: ADDRESSES.bitcoin, token: 'bitcoin', userEmail: user.email }),
      expect.objectContaining({ kind: 'send', network: 'ethereum', address: LISTED_ETH.toLowerCase(), token: 'tether' }),
    ]);
    await t.http.get('/api/admin/sanctions/hits?kind=nope').set(bearer(t.admin)).expect(400);
    await t.http.get('/api/admin/sanctions/hits').set(bearer(user.token)).expect(403);
  });

  it('refuses a listed address in the address book and flags it', async () => {
    const user = await newCustomer(t);
    const refused = await t.http
      .post('/api/user/addresses')
      .set(bearer(user.token))
      .send({ label: 'Mixer', token: 'ethereum', address: LISTED_ETH })
      .expect(403);
    expect(refused.body.error).toBe(ADDRESS_REFUSED_MESSAGE);
    expect((await t.http.get('/api/user/addresses').set(bearer(user.token)).expect(200)).body.addresses).toEqual([]);
    const flagged = await rows<{ kind: string }>(db, sql`select kind from sanctions_hits where user_id = ${user._id}`);
    expect(flagged).toEqual([{ kind: 'address-book' }]);
  });

  it('reloads the file when it changes, keeps the list in force when the file is bad, and takes an admin upload (audited)', async () => {
    const sanctions = t.app.get(SanctionsService);
    const user = await newCustomer(t);
    await fund(t, user._id, 'tether', 100);
    writeFileSync(file, `ethereum,${ADDRESSES.ethereum}\n`);
    await sanctions.reloadNow();
    await send(user.token, 'tether', ADDRESSES.ethereum).expect(403);
    await send(user.token, 'tether', LISTED_ETH).expect(201);

    writeFileSync(file, `ltc,LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1\n`);
    await sanctions.reloadNow();
    const kept = (await t.http.get('/api/admin/sanctions').set(bearer(t.admin)).expect(200)).body;
    expect(kept).toMatchObject({ source: 'file', entries: 1 });
    expect(kept.fileError).toMatch(/line 1: unknown network "ltc"/);

    const bad = await t.http.put('/api/admin/sanctions').set(bearer(t.admin)).send({ list: 'ethereum' }).expect(400);
    expect(bad.body.error).toBe('The list was not loaded: line 1: expected network,address');
    await t.http.put('/api/admin/sanctions').set(bearer(t.admin)).send({}).expect(400);
    const uploaded = (
      await t.http
        .put('/api/admin/sanctions')
        .set(bearer(t.admin))
        .send({ list: `tron,${ADDRESSES.tetherTron}\n` })
        .expect(200)
    ).body;
    expect(uploaded).toMatchObject({ source: 'upload', entries: 1, networks: [{ network: 'tron', entries: 1 }] });
    await send(user.token, 'tether', ADDRESSES.ethereum).expect(201);
    const audit = await rows<{ after: { entries: number } }>(db, sql`select after from audit_log where action = 'sanctions.upload'`);
    expect(audit.map((a) => a.after.entries)).toEqual([1]);
    // The bad file is not loaded over the upload, and an unchanged file is not loaded again.
    await sanctions.reloadNow();
    expect((await t.http.get('/api/admin/sanctions').set(bearer(t.admin)).expect(200)).body.source).toBe('upload');
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('sanctions list shared by two instances on PostgreSQL', () => {
  it('an upload on one instance is screened by the other at once (its copy of the list dropped by NOTIFY)', async () => {
    const first = await startWalletApp('postgres');
    try {
      const second = Object.assign(await startTestApp('postgres', {}, { shareDatabaseWith: first }), { admin: first.admin });
      try {
        const user = await newCustomer(first);
        await fund(first, user._id, 'tether', 50);
        // The second instance holds the (empty) list in memory, for longer than the test: only the NOTIFY can drop it.
        const cache = second.app.get(SanctionsListCache);
        cache.ttlMs = 3_600_000;
        await cache.get();
        const dropped = cache.invalidations;
        await first.http
          .put('/api/admin/sanctions')
          .set(bearer(first.admin))
          .send({ list: `ethereum,${ADDRESSES.ethereum.toUpperCase().replace('0X', '0x')}` })
          .expect(200);
        for (const deadline = Date.now() + 10_000; cache.invalidations === dropped && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(cache.invalidations).toBeGreaterThan(dropped);
        const refused = await second.http
          .post('/api/crypto/send-crypto/tether')
          .set(bearer(user.token))
          .send({ transferData: { address: ADDRESSES.ethereum, amount: '5' } })
          .expect(403);
        expect(refused.body.error).toBe(ADDRESS_REFUSED_MESSAGE);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});
