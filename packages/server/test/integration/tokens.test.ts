import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { MarketRefreshService } from '../../src/modules/market/market-refresh.service';
import { DATABASE_KINDS } from '../support/databases';
import { storedImageNames } from '../support/images';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const ETH_ADDRESS_2 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const ROUTES: Array<[method: 'get' | 'post' | 'put' | 'delete', path: string]> = [
  ['get', '/api/admin/get-tokens'],
  ['post', '/api/crypto/add-token/'],
  ['put', '/api/admin/edit-token/'],
  ['delete', '/api/admin/delete-token/00000000-0000-4000-8000-000000000000/bitcoin'],
  ['get', '/api/admin/get-custom-tokens'],
  ['post', '/api/crypto/custom-token/'],
  ['put', '/api/admin/edit-custom-token/'],
  ['delete', '/api/admin/delete-custom-token/x/y'],
];

describe.each(DATABASE_KINDS)('admin tokens and custom tokens on %s', (kind) => {
  let t: TestApp;
  let admin: { token: string; _id: string };
  let customer: Awaited<ReturnType<typeof signUp>>;
  let db: Database;

  const audit = async (targetId: string) => {
    const result = await db.execute(
      sql`select action, target_type, actor_id, actor_role, before, after from audit_log where target_id = ${targetId} order by id`,
    );
    return (result as unknown as { rows: Array<Record<string, any>> }).rows;
  };
  /** Credits the customer through the money core (an approved deposit); returns the transaction id. */
  const credit = async (token: string) => {
    const deposit = await t.http.post(`/api/crypto/deposit/${customer._id}`).set(bearer(admin.token)).send({ amount: 10, status: 'approved', network: token });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(201);
    return deposit.body._id as string;
  };
  /** Rejects a deposit: an approved one is reversed, so the customer no longer holds it. */
  const reject = async (transactionId: string) => {
    const response = await t.http.post('/api/admin/modify-transaction/').set(bearer(admin.token)).send({ tId: transactionId, modification: 'rejected' });
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  };
  let uniswapDeposit = '';
  const tokens = async () =>
    (await t.http.get('/api/admin/get-tokens').set(bearer(admin.token)).expect(200)).body as Array<{
      _id: string;
      name: string;
      address: string | null;
      contractAddress?: string | null;
    }>;
  const customTokens = async () => (await t.http.get('/api/admin/get-custom-tokens').set(bearer(admin.token)).expect(200)).body as Array<Record<string, any>>;
  const market = async () => (await t.http.get('/api/crypto/get-crypto').expect(200)).body as Array<Record<string, any>>;
  const walletTokens = async () =>
    (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(customer.token)).expect(200)).body as Array<Record<string, any>>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.get(DATABASE);
    admin = await loginAdmin(t.http);
    customer = await signUp(t.http);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(ROUTES)('%s %s: no token 401, customer 403', async (method, path) => {
    const none = await t.http[method](path).send({});
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ statusCode: 401, error: 'Please sign in to continue.' });
    const asCustomer = await t.http[method](path).set(bearer(customer.token)).send({});
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error).toBe('Administrators only.');
  });

  it('lists the default tokens (bitcoin, ethereum, tether) without addresses', async () => {
    const list = await tokens();
    expect(list.map((x) => x.name)).toEqual(['bitcoin', 'ethereum', 'tether']);
    for (const token of list) {
      // The spec's _id, name and address, the network row's fields, and how the list names it for people.
      expect(Object.keys(token).sort()).toEqual([
        '_id',
        'address',
        'coinName',
        'contractAddress',
        'name',
        'network',
        'networkName',
        'perCustomerAddresses',
        'symbol',
      ]);
      expect(token.address).toBeNull();
      expect(token.contractAddress).toBeNull();
      expect(token._id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  describe('add-token', () => {
    it.each([
      [{ address: ETH_ADDRESS }, 400, 'Coin id is required.'],
      [{ name: 'chainlink' }, 400, 'Wallet address is required.'],
      [{ name: '  ', address: ETH_ADDRESS }, 400, 'Coin id is required.'],
      [{ name: 'no-such-coin', address: ETH_ADDRESS }, 400, 'Unknown coin "no-such-coin". Use a coin id from the market list, such as bitcoin.'],
      [{ name: 'chainlink', address: 'hello', network: 'ethereum' }, 400, 'This is not a valid Ethereum address.'],
      [
        { name: 'chainlink', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', network: 'ethereum' },
        400,
        'This Ethereum address has an invalid checksum (check for a mistyped character).',
      ],
      [
        { name: 'chainlink', address: ETH_ADDRESS },
        400,
        'Chainlink (LINK) exists on several networks: choose one of ethereum, bsc, polygon, arbitrum, avalanche, tron, solana, xrp, cardano, stellar.',
      ],
      [
        { name: 'chainlink', address: ETH_ADDRESS, network: 'bitcoin' },
        400,
        'Chainlink (LINK) cannot be supported on Bitcoin. Use: ethereum, bsc, polygon, arbitrum, avalanche, tron, solana, xrp, cardano, stellar.',
      ],
      [{ name: 'solana', address: ETH_ADDRESS }, 400, 'This is not a valid Solana address.'],
      [{ name: 'litecoin', address: BTC_ADDRESS }, 400, 'This is not a valid Litecoin address.'],
      [{ name: 'bitcoin', address: BTC_ADDRESS }, 409, 'Bitcoin (BTC) is already supported on Bitcoin.'],
      [{ name: 'chainlink', address: ETH_ADDRESS, extra: 1 }, 400, 'Unknown field "extra".'],
      [{ name: 12, address: ETH_ADDRESS }, 400, 'Coin id is required.'],
    ])('refuses %j with %i', async (body, status, message) => {
      const before = await tokens();
      const response = await t.http.post('/api/crypto/add-token/').set(bearer(admin.token)).send(body);
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ statusCode: status, error: message });
      expect(await tokens()).toEqual(before);
    });

    it('adds a market coin with a validated address, audited, and refuses it twice', async () => {
      const response = await t.http
        .post('/api/crypto/add-token/')
        .set(bearer(admin.token))
        .send({ name: ' Chainlink ', address: ETH_ADDRESS, network: 'Ethereum' })
        .expect(201);
      expect(response.body).toMatchObject({
        ok: true,
        message: 'Coin added successfully',
        token: { name: 'chainlink', address: ETH_ADDRESS, network: 'ethereum' },
      });
      const id = response.body.token._id;
      expect((await tokens()).map((x) => x.name)).toEqual(['bitcoin', 'ethereum', 'tether', 'chainlink']);
      // The list names each row for people: the coin, its symbol, the network's label for it; no node here, so customers
      // deposit to the admin's address.
      expect((await tokens()).find((x) => x.name === 'chainlink')).toMatchObject({
        coinName: 'Chainlink',
        networkName: 'Ethereum (ERC-20)',
        perCustomerAddresses: false,
      });
      expect((await tokens()).find((x) => x.name === 'ethereum')).toMatchObject({ networkName: 'Ethereum', perCustomerAddresses: false });
      const wallet = await walletTokens();
      expect(wallet.find((w) => w.id === 'chainlink')).toMatchObject({ address: ETH_ADDRESS, symbol: 'link', manual_price: false });
      expect(await audit(id)).toEqual([
        expect.objectContaining({
          action: 'token.add',
          target_type: 'supported_token',
          actor_id: admin._id,
          actor_role: 'admin',
          before: null,
          after: { _id: id, name: 'chainlink', kind: 'market', address: ETH_ADDRESS, network: 'ethereum' },
        }),
      ]);
      const again = await t.http
        .post('/api/crypto/add-token')
        .set(bearer(admin.token))
        .send({ name: 'chainlink', address: ETH_ADDRESS_2, network: 'ethereum' })
        .expect(409);
      expect(again.body.error).toBe('Chainlink (LINK) is already supported on Ethereum (ERC-20).');
    });

    it('validates addresses per network: bitcoin and tether (ERC-20 or TRC-20)', async () => {
      const list = await tokens();
      const bitcoin = list.find((x) => x.name === 'bitcoin')!;
      const tether = list.find((x) => x.name === 'tether')!;
      const bad = await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(admin.token))
        .send({ token: 'bitcoin', address: ETH_ADDRESS, tokenId: bitcoin._id, oldToken: 'bitcoin' })
        .expect(400);
      expect(bad.body.error).toBe('This is not a valid Bitcoin address.');
      await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(admin.token))
        .send({ token: 'bitcoin', address: BTC_ADDRESS, tokenId: bitcoin._id, oldToken: 'bitcoin' })
        .expect(200);
      await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(admin.token))
        .send({ token: 'tether', address: TRON_ADDRESS, tokenId: tether._id, oldToken: 'tether', network: 'tron' })
        .expect(200);
      const badTron = await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(admin.token))
        .send({ token: 'tether', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', tokenId: tether._id })
        .expect(400);
      expect(badTron.body.error).toBe('This is not a valid Tron address.');
      const after = await tokens();
      expect(after.find((x) => x.name === 'bitcoin')!.address).toBe(BTC_ADDRESS);
      expect(after.find((x) => x.name === 'tether')!.address).toBe(TRON_ADDRESS);
      const wallet = await walletTokens();
      expect(wallet.find((w) => w.id === 'bitcoin')!.address).toBe(BTC_ADDRESS);
    });
  });

  describe('edit-token', () => {
    it('renames and re-addresses a token, audited with before and after', async () => {
      const chainlink = (await tokens()).find((x) => x.name === 'chainlink')!;
      const response = await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(admin.token))
        .send({ token: 'uniswap', address: ETH_ADDRESS_2, tokenId: chainlink._id, oldToken: 'chainlink' })
        .expect(200);
      expect(response.body).toEqual({
        ok: true,
        message: 'Token updated successfully',
        token: { _id: chainlink._id, name: 'uniswap', address: ETH_ADDRESS_2, network: 'ethereum', contractAddress: null },
      });
      const rows = await audit(chainlink._id);
      expect(rows.at(-1)).toMatchObject({
        action: 'token.update',
        before: { name: 'chainlink', address: ETH_ADDRESS },
        after: { name: 'uniswap', address: ETH_ADDRESS_2 },
      });
    });

    it.each([
      [
        { token: 'uniswap', address: ETH_ADDRESS, tokenId: '00000000-0000-4000-8000-000000000000' },
        404,
        'Token not found. It may have been deleted; reload the list.',
      ],
      [{ token: 'uniswap', address: ETH_ADDRESS, tokenId: 'not-a-token' }, 404, 'Token not found. It may have been deleted; reload the list.'],
      [{ token: 'ethereum', address: ETH_ADDRESS, tokenId: 'uniswap' }, 409, 'Ethereum (ETH) is already a supported token.'],
      [
        { token: 'uniswap', address: ETH_ADDRESS, tokenId: 'uniswap', oldToken: 'chainlink' },
        409,
        'This token was changed meanwhile. Reload the list and try again.',
      ],
      [{ token: 'nope-coin', address: ETH_ADDRESS, tokenId: 'uniswap' }, 400, 'Unknown coin "nope-coin". Use a coin id from the market list, such as bitcoin.'],
      [{ address: ETH_ADDRESS, tokenId: 'uniswap' }, 400, 'Name is required.'],
      [{ token: 'uniswap', tokenId: 'uniswap' }, 400, 'Address is required.'],
      [{ token: 'uniswap', address: ETH_ADDRESS }, 400, 'Token id is required.'],
    ])('refuses %j with %i', async (body, status, message) => {
      const before = await tokens();
      const response = await t.http.put('/api/admin/edit-token/').set(bearer(admin.token)).send(body);
      expect(response.status).toBe(status);
      expect(response.body.error).toBe(message);
      expect(await tokens()).toEqual(before);
    });

    it('refuses to rename a token customers hold', async () => {
      const uniswap = (await tokens()).find((x) => x.name === 'uniswap')!;
      uniswapDeposit = await credit('uniswap');
      const response = await t.http
        .put('/api/admin/edit-token/')
        .set(bearer(admin.token))
        .send({ token: 'chainlink', address: ETH_ADDRESS, tokenId: uniswap._id })
        .expect(409);
      expect(response.body.error).toBe('Customers still hold UNI, so it cannot be renamed.');
      // The address alone may change.
      await t.http.put('/api/admin/edit-token/').set(bearer(admin.token)).send({ token: 'uniswap', address: ETH_ADDRESS, tokenId: uniswap._id }).expect(200);
    });
  });

  describe('delete-token', () => {
    it('refuses while a customer holds a balance, then soft-deletes once it is zero', async () => {
      const uniswap = (await tokens()).find((x) => x.name === 'uniswap')!;
      const refused = await t.http.delete(`/api/admin/delete-token/${uniswap._id}/uniswap`).set(bearer(admin.token)).expect(409);
      expect(refused.body).toEqual({ statusCode: 409, error: 'Customers still hold UNI, so it cannot be deleted.' });
      expect((await tokens()).some((x) => x.name === 'uniswap')).toBe(true);

      await reject(uniswapDeposit);
      const mismatch = await t.http.delete(`/api/admin/delete-token/${uniswap._id}/bitcoin`).set(bearer(admin.token)).expect(400);
      expect(mismatch.body.error).toBe('The token id and name do not match. Reload the list and try again.');

      const response = await t.http.delete(`/api/admin/delete-token/${uniswap._id}/uniswap`).set(bearer(admin.token)).expect(200);
      expect(response.body).toEqual({ ok: true, message: 'Coin deleted successfully' });
      expect((await tokens()).some((x) => x.name === 'uniswap')).toBe(false);
      expect((await walletTokens()).some((x) => x.id === 'uniswap')).toBe(false);
      // Soft: the row stays for history.
      const kept = await db.execute(sql`select deleted_at from supported_tokens where id = ${uniswap._id}`);
      expect((kept as unknown as { rows: Array<{ deleted_at: unknown }> }).rows[0].deleted_at).not.toBeNull();
      expect((await audit(uniswap._id)).at(-1)).toMatchObject({ action: 'token.delete', before: { name: 'uniswap' } });
      await t.http.delete(`/api/admin/delete-token/${uniswap._id}/uniswap`).set(bearer(admin.token)).expect(404);
      // It can be supported again later.
      await t.http.post('/api/crypto/add-token/').set(bearer(admin.token)).send({ name: 'uniswap', address: ETH_ADDRESS, network: 'ethereum' }).expect(201);
    });

    it('refuses while a pending transaction in the token exists', async () => {
      const uniswap = (await tokens()).find((x) => x.name === 'uniswap')!;
      // A pending deposit, made through the money core's own route.
      const deposit = await t.http
        .post(`/api/crypto/deposit/${customer._id}`)
        .set(bearer(admin.token))
        .send({ amount: 10, status: 'pending', network: 'uniswap' });
      expect(deposit.status, JSON.stringify(deposit.body)).toBe(201);
      const refused = await t.http.delete(`/api/admin/delete-token/${uniswap._id}/uniswap`).set(bearer(admin.token)).expect(409);
      expect(refused.body.error).toBe('There are pending UNI transactions, so it cannot be deleted.');
      await t.http
        .post('/api/admin/modify-transaction/')
        .set(bearer(admin.token))
        .send({ tId: deposit.body._id, modification: 'rejected' })
        .expect((r) => expect(r.status).toBeLessThan(300));
      await t.http.delete(`/api/admin/delete-token/${uniswap._id}/uniswap`).set(bearer(admin.token)).expect(200);
    });

    it('a deleted default token stays deleted when the app boots again', async () => {
      const tether = (await tokens()).find((x) => x.name === 'tether')!;
      await t.http.delete(`/api/admin/delete-token/${tether._id}/tether`).set(bearer(admin.token)).expect(200);
      await t.app.get(MarketRefreshService).seed();
      expect((await tokens()).some((x) => x.name === 'tether')).toBe(false);
      await t.http.post('/api/crypto/add-token/').set(bearer(admin.token)).send({ name: 'tether', address: TRON_ADDRESS, network: 'tron' }).expect(201);
    });
  });

  describe('custom tokens', () => {
    const form = (fields: Record<string, string>) => {
      let request = t.http.post('/api/crypto/custom-token/').set(bearer(admin.token));
      for (const [key, value] of Object.entries(fields)) request = request.field(key, value);
      return request;
    };
    const valid = {
      coinId: 'acme-coin',
      symbol: 'ACME',
      name: 'Acme Coin',
      current_price: '1.25',
      low_24: '1.1',
      high_24: '1.4',
      price_change_percentage_24h: '-2.5',
      coinAddress: ETH_ADDRESS,
    };
    const uploads = async () => (await storedImageNames(t)).length;

    it('creates a custom token from the multipart form, with its image, listed in the market and the wallet', async () => {
      const response = await form(valid).attach('image', PNG, { filename: 'acme.png', contentType: 'image/png' }).expect(201);
      expect(response.body).toMatchObject({
        ok: true,
        message: 'Coin added successfully',
        token: {
          id: 'acme-coin',
          name: 'Acme Coin',
          symbol: 'acme',
          address: ETH_ADDRESS,
          current_price: '1.25',
          low_24h: '1.1',
          high_24h: '1.4',
          price_change_percentage_24h: '-2.5',
        },
      });
      const image = response.body.token.image as string;
      expect(image).toMatch(/^[0-9a-f]{32}\.png$/);
      const served = await t.http.get(`/images/${image}`).expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);

      const list = await customTokens();
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ _id: response.body.token._id, id: 'acme-coin', name: 'Acme Coin', address: ETH_ADDRESS });

      const coin = (await market()).find((c) => c.id === 'acme-coin');
      expect(coin).toMatchObject({
        name: 'Acme Coin',
        symbol: 'acme',
        image,
        current_price: 1.25,
        low_24h: 1.1,
        high_24h: 1.4,
        price_change_percentage_24h: -2.5,
        manual_price: true,
        market_cap_rank: null,
      });
      expect(Date.parse(coin!.last_updated)).toBeGreaterThan(Date.now() - 60_000);
      expect((await walletTokens()).find((w) => w.id === 'acme-coin')).toMatchObject({ address: ETH_ADDRESS, manual_price: true, current_price: 1.25 });

      const rows = await audit(response.body.token._id);
      expect(rows.map((r) => r.action)).toEqual(['custom_token.add', 'custom_token.price_change']);
      expect(rows[1]).toMatchObject({
        actor_id: admin._id,
        before: null,
        after: { current_price: '1.25', low_24h: '1.1', high_24h: '1.4', price_change_percentage_24h: '-2.5' },
      });
      // Not a market token: the Tokens page lists market tokens only.
      expect((await tokens()).some((x) => x.name === 'acme-coin')).toBe(false);
    });

    it('accepts `address` as well as `coinAddress`, and no image (generic icon)', async () => {
      const response = await form({ coinId: 'beta-coin', symbol: 'bet', name: 'Beta', current_price: '0.000001', address: ETH_ADDRESS_2 }).expect(201);
      expect(response.body.token).toMatchObject({
        id: 'beta-coin',
        image: 'generic.png',
        address: ETH_ADDRESS_2,
        low_24h: null,
        high_24h: null,
        price_change_percentage_24h: null,
      });
      // Empty optional fields (as a form sends them) count as absent.
      await form({
        coinId: 'gamma-coin',
        symbol: 'gam',
        name: 'Gamma',
        current_price: '3',
        low_24: '',
        high_24: '',
        price_change_percentage_24h: '',
        coinAddress: ETH_ADDRESS,
      }).expect(201);
    });

    it.each([
      [{ ...valid, coinId: '' }, 400, 'Coin id is required.'],
      [{ ...valid, coinId: 'Bad Id!' }, 400, 'Coin id may only contain letters, digits and single hyphens (e.g. my-coin).'],
      [{ ...valid, symbol: '' }, 400, 'Symbol is required.'],
      [{ ...valid, symbol: 'TOO-LONG-SYMBOL-X' }, 400, 'Symbol must be 1 to 15 letters or digits.'],
      [{ ...valid, name: '' }, 400, 'Name is required.'],
      [{ ...valid, current_price: '' }, 400, 'Current price is required.'],
      [{ ...valid, current_price: 'abc' }, 400, 'Current price must be a plain number such as 1.25 (at most 18 decimals).'],
      [{ ...valid, current_price: '1e3' }, 400, 'Current price must be a plain number such as 1.25 (at most 18 decimals).'],
      [{ ...valid, current_price: 'NaN' }, 400, 'Current price must be a plain number such as 1.25 (at most 18 decimals).'],
      [{ ...valid, current_price: 'Infinity' }, 400, 'Current price must be a plain number such as 1.25 (at most 18 decimals).'],
      [{ ...valid, current_price: '-1' }, 400, 'Current price must be a plain number such as 1.25 (at most 18 decimals).'],
      [{ ...valid, current_price: '0' }, 400, 'Current price must be greater than 0.'],
      [
        { ...valid, current_price: '1234567890123456789012345678901234567890' },
        400,
        'Current price must be a plain number such as 1.25 (at most 18 decimals).',
      ],
      [{ ...valid, current_price: '1.1234567890123456789' }, 400, 'Current price must be a plain number such as 1.25 (at most 18 decimals).'],
      [{ ...valid, low_24: '2', high_24: '1' }, 400, 'Low 24h cannot be above High 24h.'],
      [{ ...valid, low_24: '-1' }, 400, 'Low 24h must be a plain number such as 1.10 (at most 18 decimals).'],
      [{ ...valid, price_change_percentage_24h: '5%' }, 400, 'Price change must be a plain number such as -2.5 (at most 8 decimals).'],
      [{ ...valid, coinAddress: '' }, 400, 'Wallet address is required.'],
      [{ ...valid, coinAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, 400, 'This is not a valid Ethereum address.'],
      [{ ...valid, role: 'x' }, 400, 'Unknown field "role".'],
      [{ ...valid, coinId: 'bitcoin' }, 409, '"bitcoin" is already a market coin. Add it on the Tokens page instead.'],
      [{ ...valid, symbol: 'btc' }, 409, 'The symbol BTC is already used by Bitcoin. Choose another symbol.'],
      [{ ...valid, coinId: 'ACME-COIN' }, 409, 'A custom token with the id "acme-coin" already exists.'],
    ])('refuses %j with %i, storing nothing', async (fields, status, message) => {
      // acme-coin (ACME) exists by now: the other cases use a fresh id and symbol unless they test those.
      const body = {
        ...fields,
        coinId: fields.coinId === valid.coinId ? 'delta-coin' : fields.coinId,
        symbol: fields.symbol === valid.symbol ? 'DLT' : fields.symbol,
      };
      const before = { list: await customTokens(), files: await uploads() };
      const response = await form(body).attach('image', PNG, { filename: 'x.png', contentType: 'image/png' });
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body).toMatchObject({ statusCode: status, error: message });
      expect(await customTokens()).toEqual(before.list);
      expect(await uploads()).toBe(before.files);
    });

    it.each([
      [
        'an SVG with a script',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'logo.svg',
        'image/svg+xml',
        415,
        'Only PNG, JPEG, WebP or GIF images are accepted.',
      ],
      [
        'HTML named .png',
        Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
        'logo.png',
        'image/png',
        415,
        'Only PNG, JPEG, WebP or GIF images are accepted.',
      ],
      ['a PDF', Buffer.from('%PDF-1.4\n%âãÏÓ\n'), 'logo.png', 'image/png', 415, 'Only PNG, JPEG, WebP or GIF images are accepted.'],
      ['an empty file', Buffer.alloc(0), 'logo.png', 'image/png', 400, 'The image file is empty.'],
      [
        'a file over 5 MB',
        Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]),
        'big.png',
        'image/png',
        413,
        'The image is too large. The maximum size is 5 MB.',
      ],
    ])('refuses %s', async (_label, bytes, filename, contentType, status, message) => {
      const before = { list: await customTokens(), files: await uploads() };
      const response = await form({ ...valid, coinId: 'hostile-coin', symbol: 'HOS' }).attach('image', bytes, { filename, contentType });
      expect(response.status).toBe(status);
      expect(response.body).toEqual({ statusCode: status, error: message });
      expect(await customTokens()).toEqual(before.list);
      expect(await uploads()).toBe(before.files);
      expect((await market()).some((c) => c.id === 'hostile-coin')).toBe(false);
    });

    it('refuses two files, a file in another field, and a path in the file name is ignored', async () => {
      const two = await form({ ...valid, coinId: 'hostile-coin' })
        .attach('image', PNG, 'a.png')
        .attach('image', PNG, 'b.png')
        .expect(400);
      expect(two.body.error).toBe('Attach at most one image, in the "image" field.');
      await form({ ...valid, coinId: 'hostile-coin' })
        .attach('file', PNG, 'a.png')
        .expect(400);
      const traversal = await form({ ...valid, coinId: 'path-coin', symbol: 'PTH' })
        .attach('image', PNG, { filename: '../../../etc/passwd.png', contentType: 'image/png' })
        .expect(201);
      expect(traversal.body.token.image).toMatch(/^[0-9a-f]{32}\.png$/);
    });

    it('edits name, address and price; each price change is audited and the market list follows', async () => {
      const acme = (await customTokens()).find((c) => c.id === 'acme-coin')!;
      const etag = (await t.http.get('/api/crypto/get-crypto').expect(200)).headers.etag;
      const response = await t.http
        .put('/api/admin/edit-custom-token/')
        .set(bearer(admin.token))
        .send({ token: 'Acme Coin Two', address: ETH_ADDRESS_2, tokenId: acme._id, current_price: '2.5' })
        .expect(200);
      expect(response.body).toMatchObject({
        ok: true,
        message: 'Token updated successfully',
        token: { _id: acme._id, id: 'acme-coin', name: 'Acme Coin Two', address: ETH_ADDRESS_2, current_price: '2.5' },
      });
      const listed = await t.http.get('/api/crypto/get-crypto').expect(200);
      expect(listed.headers.etag).not.toBe(etag);
      expect(listed.body.find((c: { id: string }) => c.id === 'acme-coin')).toMatchObject({ name: 'Acme Coin Two', current_price: 2.5, manual_price: true });

      // Name and address only: no price-change row.
      await t.http
        .put('/api/admin/edit-custom-token/')
        .set(bearer(admin.token))
        .send({ token: 'Acme', address: ETH_ADDRESS, tokenId: 'acme-coin' })
        .expect(200);
      const rows = await audit(acme._id);
      expect(rows.map((r) => r.action)).toEqual([
        'custom_token.add',
        'custom_token.price_change',
        'custom_token.update',
        'custom_token.price_change',
        'custom_token.update',
      ]);
      expect(rows[3]).toMatchObject({ before: { current_price: '1.25' }, after: { current_price: '2.5' } });
      expect(rows[4]).toMatchObject({ before: { name: 'Acme Coin Two', address: ETH_ADDRESS_2 }, after: { name: 'Acme', address: ETH_ADDRESS } });
    });

    it.each([
      [{ address: ETH_ADDRESS, tokenId: 'acme-coin' }, 400, 'Token name is required.'],
      [{ token: 'A', tokenId: 'acme-coin' }, 400, 'Address is required.'],
      [{ token: 'A', address: ETH_ADDRESS }, 400, 'Token id is required.'],
      [{ token: 'A', address: 'nope', tokenId: 'acme-coin' }, 400, 'This is not a valid Ethereum address.'],
      [{ token: 'A', address: ETH_ADDRESS, tokenId: 'bitcoin' }, 404, 'Custom token not found. It may have been deleted; reload the list.'],
      [
        { token: 'A', address: ETH_ADDRESS, tokenId: '00000000-0000-4000-8000-000000000000' },
        404,
        'Custom token not found. It may have been deleted; reload the list.',
      ],
      [{ token: 'A', address: ETH_ADDRESS, tokenId: 'acme-coin', current_price: 0 }, 400, 'Current price must be greater than 0.'],
      [
        { token: 'A', address: ETH_ADDRESS, tokenId: 'acme-coin', current_price: 1e21 },
        400,
        'Current price must be a plain number such as 1.25 (at most 18 decimals).',
      ],
      [{ token: 'A', address: ETH_ADDRESS, tokenId: 'acme-coin', low_24: 5, high_24: 4 }, 400, 'Low 24h cannot be above High 24h.'],
    ])('edit refuses %j with %i', async (body, status, message) => {
      const before = await customTokens();
      const response = await t.http.put('/api/admin/edit-custom-token/').set(bearer(admin.token)).send(body);
      expect(response.status).toBe(status);
      expect(response.body.error).toBe(message);
      expect(await customTokens()).toEqual(before);
    });

    it('deletes by _id or coin id in either path segment; refused while held; gone from market and wallet', async () => {
      const list = await customTokens();
      const beta = list.find((c) => c.id === 'beta-coin')!;
      const gamma = list.find((c) => c.id === 'gamma-coin')!;
      const acme = list.find((c) => c.id === 'acme-coin')!;

      const mixed = await t.http.delete(`/api/admin/delete-custom-token/${beta._id}/gamma-coin`).set(bearer(admin.token)).expect(400);
      expect(mixed.body.error).toBe('The two ids point to different custom tokens. Reload the list and try again.');
      await t.http.delete('/api/admin/delete-custom-token/nothing/none').set(bearer(admin.token)).expect(404);

      const betaDeposit = await credit('beta-coin');
      const held = await t.http.delete(`/api/admin/delete-custom-token/${beta._id}/beta-coin`).set(bearer(admin.token)).expect(409);
      expect(held.body.error).toBe('Customers still hold BET, so it cannot be deleted.');
      await reject(betaDeposit);

      await t.http.delete(`/api/admin/delete-custom-token/${beta._id}/beta-coin`).set(bearer(admin.token)).expect(200);
      await t.http.delete(`/api/admin/delete-custom-token/gamma-coin/${gamma._id}`).set(bearer(admin.token)).expect(200);
      const last = await t.http.delete(`/api/admin/delete-custom-token/undefined/${acme._id}`).set(bearer(admin.token)).expect(200);
      expect(last.body).toEqual({ ok: true, message: 'Coin deleted successfully' });

      expect((await customTokens()).map((c) => c.id)).toEqual(['path-coin']);
      const ids = (await market()).map((c) => c.id);
      expect(ids).not.toContain('acme-coin');
      expect(ids).toContain('path-coin');
      expect((await walletTokens()).some((w) => w.id === 'acme-coin')).toBe(false);
      expect((await audit(acme._id)).at(-1)).toMatchObject({ action: 'custom_token.delete', before: { id: 'acme-coin' } });

      // The id can be used again.
      await form({ ...valid, coinId: 'acme-coin' }).expect(201);
      expect((await market()).find((c) => c.id === 'acme-coin')).toMatchObject({ current_price: 1.25, manual_price: true });
    });
  });

  it('leaves the ledger balanced (every balance the sum of its lines, every token summing to zero)', async () => {
    const check = await t.http.get('/api/admin/ledger/check').set(bearer(admin.token)).expect(200);
    expect(check.body).toMatchObject({ ok: true, mismatches: [], negativeCustomerBalances: 0 });
    expect(check.body.lines).toBeGreaterThan(0);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))('token races on PostgreSQL', () => {
  let t: TestApp;
  let admin: { token: string; _id: string };
  beforeAll(async () => {
    t = await startTestApp('postgres');
    admin = await loginAdmin(t.http);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('20 concurrent adds of one coin: exactly one 201, the rest 409, no 5xx', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http.post('/api/crypto/add-token/').set(bearer(admin.token)).send({ name: 'polkadot', address: ETH_ADDRESS, network: 'ethereum' }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const list = (await t.http.get('/api/admin/get-tokens').set(bearer(admin.token)).expect(200)).body as Array<{ name: string }>;
    expect(list.filter((x) => x.name === 'polkadot')).toHaveLength(1);
  });

  it('10 concurrent creates of one custom token: exactly one 201, the rest 409, losers leave no image behind', async () => {
    const before = (await storedImageNames(t)).length;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.http
          .post('/api/crypto/custom-token/')
          .set(bearer(admin.token))
          .field('coinId', 'race-coin')
          .field('symbol', 'RACE')
          .field('name', 'Race Coin')
          .field('current_price', '2')
          .field('address', ETH_ADDRESS)
          .attach('image', PNG, { filename: 'race.png', contentType: 'image/png' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const after = (await storedImageNames(t)).length;
    expect(after - before).toBe(1);
    const market = (await t.http.get('/api/crypto/get-crypto').expect(200)).body as Array<{ id: string }>;
    expect(market.filter((c) => c.id === 'race-coin')).toHaveLength(1);
  });
});
