import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { seedCoins } from '../support/market';
import { NETWORK_ADDRESSES } from '../support/network-addresses';
import { bearer } from '../support/test-app';
import { ADDRESSES, fund, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';
import { startSmtpServer } from './helpers/smtp';

/** The coin each network is tested with (its native coin). */
const COIN_OF: Record<string, string> = {
  bitcoin: 'bitcoin',
  ethereum: 'ethereum',
  bsc: 'binancecoin',
  polygon: 'matic-network',
  arbitrum: 'arbitrum',
  avalanche: 'avalanche-2',
  tron: 'tron',
  solana: 'solana',
  xrp: 'ripple',
  litecoin: 'litecoin',
  dogecoin: 'dogecoin',
  cardano: 'cardano',
  stellar: 'stellar',
  'bitcoin-cash': 'bitcoin-cash',
};
const NEW_COINS = Object.values(COIN_OF).filter((id) => id !== 'bitcoin' && id !== 'ethereum');
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const ETH_ADDRESS_2 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const TRON_ADDRESS = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8';

describe.each(DATABASE_KINDS)('networks, per-chain addresses and the address book on %s', (kind) => {
  let t: WalletApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let db: Database;
  let viewer: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startWalletApp(kind, {
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://wallet.example',
      // Explorers per network: a base URL takes the network's own paths; a pattern is used as given; none: no links.
      CHAIN_BITCOIN_EXPLORER_URL: 'https://mempool.space/testnet4/',
      CHAIN_SOLANA_EXPLORER_URL: 'https://explorer.solana.com/tx/{tx}?cluster=devnet',
      CHAIN_DOGECOIN_EXPLORER_URL: 'none',
    });
    db = t.app.get(DATABASE);
    await seedCoins(t, Object.fromEntries(NEW_COINS.map((id) => [id, '2'])));
    viewer = (await newCustomer(t)).token;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const admin = () => bearer(t.admin);
  const adminTokens = async () =>
    (await t.http.get('/api/admin/get-tokens').set(admin()).expect(200)).body as Array<{ _id: string; name: string; address: string | null; network: string }>;
  const walletTokens = async () => (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(viewer)).expect(200)).body as Array<Record<string, any>>;

  it('GET /api/crypto/networks is public and lists the 14 networks with names, explorers and memo support', async () => {
    const response = await t.http.get('/api/crypto/networks').expect(200);
    expect(response.body.map((n: { id: string }) => n.id)).toEqual(Object.keys(COIN_OF));
    expect(response.body.find((n: { id: string }) => n.id === 'tron')).toEqual({
      id: 'tron',
      name: 'Tron (TRC-20)',
      nativeCoins: ['tron'],
      shortName: 'Tron',
      evm: false,
      memo: false,
      memoLabel: null,
      memoHint: null,
      explorerTx: 'https://tronscan.org/#/transaction/{tx}',
      explorerAddress: 'https://tronscan.org/#/address/{address}',
    });
    expect(response.body.find((n: { id: string }) => n.id === 'ethereum')).toMatchObject({
      name: 'Ethereum (ERC-20)',
      shortName: 'Ethereum',
      nativeCoins: ['ethereum'],
    });
    expect(response.body.filter((n: { memo: boolean }) => n.memo).map((n: { id: string }) => n.id)).toEqual(['xrp', 'stellar']);
    const explorer = (id: string) => {
      const { explorerTx, explorerAddress } = response.body.find((n: { id: string }) => n.id === id);
      return { explorerTx, explorerAddress };
    };
    expect(explorer('bitcoin')).toEqual({
      explorerTx: 'https://mempool.space/testnet4/tx/{tx}',
      explorerAddress: 'https://mempool.space/testnet4/address/{address}',
    });
    expect(explorer('solana')).toEqual({ explorerTx: 'https://explorer.solana.com/tx/{tx}?cluster=devnet', explorerAddress: '' });
    expect(explorer('dogecoin')).toEqual({ explorerTx: '', explorerAddress: '' });
  });

  describe.each(NETWORK_ADDRESSES)('$network through the HTTP API', ({ network, shortName, mainnet, wrongChain, testnet }) => {
    const coin = COIN_OF[network];

    it('add-token / edit-token take every real mainnet address and refuse other chains and testnets, changing nothing', async () => {
      const before = await adminTokens();
      for (const bad of [...wrongChain, ...testnet]) {
        const refused = await t.http.post('/api/crypto/add-token/').set(admin()).send({ name: coin, address: bad });
        expect(refused.status, bad).toBe(400);
        expect(refused.body.error, bad).toBe(`This is not a valid ${shortName} address.`);
      }
      expect(await adminTokens()).toEqual(before);
      if (!before.some((row) => row.name === coin)) {
        // Without `network`, the coin's native network is used.
        const added = await t.http.post('/api/crypto/add-token/').set(admin()).send({ name: coin, address: mainnet[0] }).expect(201);
        expect(added.body.token).toMatchObject({ name: coin, address: mainnet[0], network });
      }
      for (const address of mainnet) {
        const edited = await t.http.put('/api/admin/edit-token/').set(admin()).send({ token: coin, address, tokenId: coin });
        expect(edited.status, `${address}: ${JSON.stringify(edited.body)}`).toBe(200);
        expect(edited.body.token).toMatchObject({ name: coin, address, network });
      }
      const row = (await adminTokens()).find((r) => r.name === coin)!;
      expect(row).toMatchObject({ network, address: mainnet.at(-1) });
      // On a memo network the customer also gets their own destination tag or memo on the shared address (issue 24).
      const memo = { xrp: 'Destination tag', stellar: 'Memo' }[network as string];
      expect((await walletTokens()).find((w) => w.id === coin)!.networks).toEqual([
        {
          network,
          name: expect.any(String),
          address: mainnet.at(-1),
          depositNote: null,
          ...(memo ? { memo: expect.stringMatching(/^\d{9}$/), memoLabel: memo } : {}),
        },
      ]);
    });

    it('send-crypto goes to every real mainnet address, records the network, and refuses other chains and testnets', async () => {
      const user = await newCustomer(t);
      await fund(t, user._id, coin, 1000);
      for (const address of mainnet) {
        const sent = await t.http
          .post(`/api/crypto/send-crypto/${coin}`)
          .set(bearer(user.token))
          .send({ transferData: { address, amount: '1' } });
        expect(sent.status, `${address}: ${JSON.stringify(sent.body)}`).toBe(201);
        expect(sent.body.transaction).toMatchObject({ network, address, type: 'withdrawal', status: 'pending' });
      }
      for (const bad of [...wrongChain, ...testnet]) {
        const refused = await t.http
          .post(`/api/crypto/send-crypto/${coin}`)
          .set(bearer(user.token))
          .send({ transferData: { address: bad, amount: '1' } });
        expect(refused.status, bad).toBe(400);
        expect(refused.body.error, bad).toBe(`This is not a valid ${shortName} address.`);
      }
      const history = (await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body as Array<{ network: string; type: string }>;
      expect(history.filter((h) => h.type === 'withdrawal').map((h) => h.network)).toEqual(mainnet.map(() => network));
    });
  });

  it('memo / destination tag: stored with an XRP send, refused where the network has none or when malformed', async () => {
    const user = await newCustomer(t);
    await fund(t, user._id, 'ripple', 100);
    await fund(t, user._id, 'bitcoin', 100);
    const sent = await t.http
      .post('/api/crypto/send-crypto/ripple')
      .set(bearer(user.token))
      .send({ transferData: { address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', amount: '1', memo: '123456' } })
      .expect(201);
    expect(sent.body.transaction).toMatchObject({ network: 'xrp', memo: '123456' });
    const history = (await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body as Array<{ memo: string | null }>;
    expect(history[0].memo).toBe('123456');
    const badTag = await t.http
      .post('/api/crypto/send-crypto/ripple')
      .set(bearer(user.token))
      .send({ transferData: { address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', amount: '1', memo: 'hello' } })
      .expect(400);
    expect(badTag.body.error).toBe('An XRP destination tag is a whole number from 0 to 4294967295.');
    const noMemo = await t.http
      .post('/api/crypto/send-crypto/bitcoin')
      .set(bearer(user.token))
      .send({ transferData: { address: ADDRESSES.bitcoin, amount: '1', memo: '1' } })
      .expect(400);
    expect(noMemo.body.error).toBe('The Bitcoin network has no memo or tag: leave it empty.');
  });

  describe('a token on several networks (tether on ethereum and tron)', () => {
    it('admin rows per network, wallet networks with their deposit addresses, send inferring the network', async () => {
      const rows = (await adminTokens()).filter((r) => r.name === 'tether');
      expect(rows.map((r) => r.network)).toEqual(['ethereum', 'tron']);
      // No deposit address yet: the wallet tokens say plainly that deposits there are not set up.
      const before = (await walletTokens()).find((w) => w.id === 'tether')!;
      expect(before.depositNote).toBe('Deposits are not set up for the Ethereum (ERC-20) network yet.');
      expect(before.networks).toEqual([
        { network: 'ethereum', name: 'Ethereum (ERC-20)', address: null, depositNote: 'Deposits are not set up for the Ethereum (ERC-20) network yet.' },
        { network: 'tron', name: 'Tron (TRC-20)', address: null, depositNote: 'Deposits are not set up for the Tron (TRC-20) network yet.' },
      ]);
      for (const row of rows) {
        await t.http
          .put('/api/admin/edit-token/')
          .set(admin())
          .send({ token: 'tether', tokenId: row._id, address: row.network === 'tron' ? TRON_ADDRESS : ETH_ADDRESS })
          .expect(200);
      }
      const noNetwork = await t.http.post('/api/crypto/add-token/').set(admin()).send({ name: 'tether', address: ETH_ADDRESS_2 }).expect(400);
      expect(noNetwork.body.error).toBe(
        'Tether (USDT) exists on several networks: choose one of ethereum, bsc, polygon, arbitrum, avalanche, tron, solana, xrp, cardano, stellar.',
      );
      const twice = await t.http.post('/api/crypto/add-token/').set(admin()).send({ name: 'tether', address: ETH_ADDRESS_2, network: 'ethereum' }).expect(409);
      expect(twice.body.error).toBe('Tether (USDT) is already supported on Ethereum (ERC-20).');

      const tether = (await walletTokens()).find((w) => w.id === 'tether')!;
      expect(tether.address).toBe(ETH_ADDRESS);
      expect(tether.depositNote).toBeNull();
      expect(tether.networks).toEqual([
        { network: 'ethereum', name: 'Ethereum (ERC-20)', address: ETH_ADDRESS, depositNote: null },
        { network: 'tron', name: 'Tron (TRC-20)', address: TRON_ADDRESS, depositNote: null },
      ]);

      const user = await newCustomer(t);
      await fund(t, user._id, 'tether', 100);
      const send = (transferData: Record<string, unknown>) => t.http.post('/api/crypto/send-crypto/tether').set(bearer(user.token)).send({ transferData });
      expect((await send({ address: ADDRESSES.tetherTron, amount: 1 }).expect(201)).body.transaction.network).toBe('tron');
      expect((await send({ address: ETH_ADDRESS_2, amount: 1 }).expect(201)).body.transaction.network).toBe('ethereum');
      expect((await send({ address: ETH_ADDRESS_2, amount: 1, network: 'polygon' }).expect(400)).body.error).toBe(
        'Tether (USDT) cannot be sent on "polygon". Choose one of: Ethereum (ERC-20) (ethereum), Tron (TRC-20) (tron).',
      );
      expect((await send({ address: ADDRESSES.tetherTron, amount: 1, network: 'ethereum' }).expect(400)).body.error).toBe(
        'This is not a valid Ethereum address.',
      );
      expect((await send({ address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: 1 }).expect(400)).body.error).toBe(
        'This is not a valid Tether (USDT) address on any of its networks: Ethereum (ERC-20) (ethereum), Tron (TRC-20) (tron).',
      );

      // A second EVM network makes a 0x address ambiguous: the customer must choose.
      const bsc = await t.http.post('/api/crypto/add-token/').set(admin()).send({ name: 'tether', address: ETH_ADDRESS_2, network: 'bsc' }).expect(201);
      expect(bsc.body.token).toMatchObject({ name: 'tether', network: 'bsc', address: ETH_ADDRESS_2 });
      const ambiguous = await send({ address: ETH_ADDRESS, amount: 1 }).expect(400);
      expect(ambiguous.body.error).toBe('This address is valid on several networks of Tether (USDT): choose the network (ethereum, bsc).');
      expect((await send({ address: ETH_ADDRESS, amount: 1, network: 'bsc' }).expect(201)).body.transaction.network).toBe('bsc');
      const balanceBefore = (await t.http.get('/api/user/get-user-balance').set(bearer(user.token)).expect(200)).body;

      const history = (await t.http.get('/api/user/get-transaction').set(bearer(user.token)).expect(200)).body as Array<{ network: string; type: string }>;
      expect(history.filter((h) => h.type === 'withdrawal').map((h) => h.network)).toEqual(['bsc', 'ethereum', 'tron']);

      // Removing one network keeps the token and its other networks.
      await t.http.delete(`/api/admin/delete-token/${bsc.body.token._id}/tether`).set(admin()).expect(200);
      expect((await adminTokens()).filter((r) => r.name === 'tether').map((r) => r.network)).toEqual(['ethereum', 'tron']);
      expect((await t.http.get('/api/user/get-user-balance').set(bearer(user.token)).expect(200)).body).toEqual(balanceBefore);
    });

    it('an edit may move a row to another network (validated there), never onto one the token already has', async () => {
      const tron = (await adminTokens()).find((r) => r.name === 'tether' && r.network === 'tron')!;
      const bad = await t.http
        .put('/api/admin/edit-token/')
        .set(admin())
        .send({ token: 'tether', tokenId: tron._id, address: TRON_ADDRESS, network: 'polygon' })
        .expect(400);
      expect(bad.body.error).toBe('This is not a valid Polygon address.');
      const taken = await t.http
        .put('/api/admin/edit-token/')
        .set(admin())
        .send({ token: 'tether', tokenId: tron._id, address: ETH_ADDRESS, network: 'ethereum' })
        .expect(409);
      expect(taken.body.error).toBe('This token is already on Ethereum (ERC-20).');
      const moved = await t.http
        .put('/api/admin/edit-token/')
        .set(admin())
        .send({ token: 'tether', tokenId: tron._id, address: ETH_ADDRESS_2, network: 'polygon' })
        .expect(200);
      expect(moved.body.token).toEqual({ _id: tron._id, name: 'tether', address: ETH_ADDRESS_2, network: 'polygon', contractAddress: null });
      await t.http.put('/api/admin/edit-token/').set(admin()).send({ token: 'tether', tokenId: tron._id, address: TRON_ADDRESS, network: 'tron' }).expect(200);
    });

    it('deposits: a token id means its first network; a network id means the token on it; anything else 400', async () => {
      const user = await newCustomer(t);
      const deposit = (network: string) => t.http.post(`/api/crypto/deposit/${user._id}`).set(admin()).send({ amount: 10, status: 'approved', network });
      expect((await deposit('tether').expect(201)).body).toMatchObject({ token: 'tether', network: 'ethereum', address: ETH_ADDRESS });
      expect((await deposit('tron').expect(201)).body).toMatchObject({ token: 'tron', network: 'tron' });
      expect((await deposit('xrp').expect(201)).body).toMatchObject({ token: 'ripple', network: 'xrp' });
      const unknown = await deposit('TRC-20').expect(400);
      expect(unknown.body.error).toMatch(/^Unknown network "TRC-20"\. Use a supported token \(.*\) or a network id \(bitcoin, ethereum, bsc, .*\)\.$/);
    });
  });

  describe('address book and allowlist', () => {
    const notifications = async (token: string) =>
      (await t.http.get('/api/user/get-notifications').set(bearer(token)).expect(200)).body as Array<{ title: string; message: string }>;

    it('needs a customer session', async () => {
      await t.http.get('/api/user/addresses').expect(401);
      await t.http.get('/api/user/addresses').set(admin()).expect(403);
    });

    it('saves, lists and deletes addresses, validated like a send; duplicates 409; notifies and mails on add', async () => {
      const user = await newCustomer(t);
      const me = bearer(user.token);
      expect((await t.http.get('/api/user/addresses').set(me).expect(200)).body).toEqual({
        allowlistEnabled: false,
        holdHours: 24,
        travelRuleThresholdUsd: 100000000, // the test apps ask no travel-rule questions unless a test sets its threshold
        addresses: [],
      });

      const saved = await t.http
        .post('/api/user/addresses')
        .set(me)
        .send({ label: 'My Tron wallet', token: 'tether', address: ADDRESSES.tetherTron, code: '123456' })
        .expect(201);
      const entry = saved.body.address;
      expect(entry).toMatchObject({
        label: 'My Tron wallet',
        token: 'tether',
        network: 'tron',
        networkName: 'Tron (TRC-20)',
        address: ADDRESSES.tetherTron,
        memo: null,
      });
      expect(Date.parse(entry.usableFrom) - Date.parse(entry.createdAt)).toBe(24 * 3_600_000);
      const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('withdrawal address was added'));
      expect(mail.text).toContain('Tron (TRC-20)');
      expect(mail.text).toContain(ADDRESSES.tetherTron);
      expect((await notifications(user.token)).map((n) => n.title)).toContain('Withdrawal address added');

      const duplicate = await t.http
        .post('/api/user/addresses')
        .set(me)
        .send({ label: 'Again', token: 'tether', network: 'tron', address: ADDRESSES.tetherTron })
        .expect(409);
      expect(duplicate.body.error).toBe('This address is already in your address book.');
      const wrong = await t.http.post('/api/user/addresses').set(me).send({ label: 'Bad', token: 'solana', address: ETH_ADDRESS }).expect(400);
      expect(wrong.body.error).toBe('This is not a valid Solana address.');
      const unsupported = await t.http.post('/api/user/addresses').set(me).send({ label: 'Bad', token: 'not-a-coin', address: ETH_ADDRESS }).expect(400);
      expect(unsupported.body.error).toBe('"not-a-coin" is not a supported token.');
      const xrp = await t.http
        .post('/api/user/addresses')
        .set(me)
        .send({ label: 'Exchange', token: 'ripple', address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', memo: '42' })
        .expect(201);
      expect(xrp.body.address).toMatchObject({ network: 'xrp', memo: '42' });
      // Same address, another destination tag: another entry.
      await t.http
        .post('/api/user/addresses')
        .set(me)
        .send({ label: 'Exchange 2', token: 'ripple', address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', memo: '43' })
        .expect(201);

      const other = await newCustomer(t);
      await t.http.delete(`/api/user/addresses/${entry._id}`).set(bearer(other.token)).expect(404);
      await t.http.delete('/api/user/addresses/not-a-uuid').set(me).expect(404);
      await t.http.delete(`/api/user/addresses/${xrp.body.address._id}`).set(me).expect(200);
      const list = (await t.http.get('/api/user/addresses').set(me).expect(200)).body;
      expect(list.addresses.map((a: { label: string }) => a.label)).toEqual(['My Tron wallet', 'Exchange 2']);
    });

    it('allowlist on: unsaved addresses 403, saved ones only after the hold; turning it off notifies and mails', async () => {
      const user = await newCustomer(t);
      const me = bearer(user.token);
      await fund(t, user._id, 'tether', 100);
      const saved = (
        await t.http
          .post('/api/user/addresses')
          .set(me)
          .send({ label: 'Cold wallet', token: 'tether', network: 'tron', address: ADDRESSES.tetherTron })
          .expect(201)
      ).body.address;
      expect((await t.http.put('/api/user/addresses/allowlist').set(me).send({ enabled: true, code: '000000' }).expect(200)).body).toEqual({
        ok: true,
        message: 'Allowlist turned on',
        allowlistEnabled: true,
      });
      await t.http.put('/api/user/addresses/allowlist').set(me).send({ enabled: 'yes' }).expect(400);

      const send = (address: string, network?: string) =>
        t.http
          .post('/api/crypto/send-crypto/tether')
          .set(me)
          .send({ transferData: { address, amount: 5, ...(network ? { network } : {}) } });
      const unsaved = await send(ETH_ADDRESS).expect(403);
      expect(unsaved.body.error).toBe(
        'Your address allowlist is on: sends go only to addresses saved in your address book. Save this Ethereum (ERC-20) address first, or turn the allowlist off.',
      );
      const held = await send(ADDRESSES.tetherTron).expect(403);
      expect(held.body.error).toMatch(/^"Cold wallet" was saved recently: for your safety it can be used from /);
      expect(
        (await t.http.get('/api/user/get-user-balance').set(me).expect(200)).body.balances.find((b: { token: string }) => b.token === 'tether').coinAmount,
      ).toBe('100.00');

      // The hold passes.
      await db.execute(sql`update address_book set usable_at = now() - interval '1 minute' where id = ${saved._id}`);
      const ok = await send(ADDRESSES.tetherTron).expect(201);
      expect(ok.body.transaction).toMatchObject({ network: 'tron', address: ADDRESSES.tetherTron });

      const off = await t.http.put('/api/user/addresses/allowlist').set(me).send({ enabled: false }).expect(200);
      expect(off.body.allowlistEnabled).toBe(false);
      const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('allowlist was turned off'));
      expect(mail.text).toContain('withdrawals can now go to any address');
      expect((await notifications(user.token)).map((n) => n.title)).toContain('Address allowlist turned off');
      await send(ETH_ADDRESS).expect(201);
    });
  });
});
