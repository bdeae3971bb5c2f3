import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { defaultNetwork } from '../../src/modules/market/supported-tokens.repository';
import { ReferenceDataCache } from '../../src/modules/reference-data/reference-data.cache';
import { seedCoins } from './market';
import { bearer, loginAdmin, signUp, startTestApp, type StartTestAppOptions, type TestApp } from './test-app';

export const ADDRESSES = {
  bitcoin: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  bitcoinLegacy: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  ethereum: '0xde709f2102306220921060314715629080e2fb77',
  tetherTron: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
};

export const PRICES = { bitcoin: '50000', ethereum: '2500', tether: '1' };

/** Makes these coins supported tokens (what customers can hold), unless they already are, on their default network. */
export async function supportTokens(t: TestApp, ids: string[]): Promise<void> {
  const db = t.app.get<Database>(DATABASE);
  for (const id of ids) {
    await db.execute(
      sql`insert into supported_tokens (coin_id) select ${id} where not exists (select 1 from supported_tokens where coin_id = ${id} and deleted_at is null)`,
    );
    await db.execute(
      sql`insert into token_networks (id, token_id, network, address) select id, id, ${defaultNetwork(id)}, address from supported_tokens where coin_id = ${id} and deleted_at is null on conflict do nothing`,
    );
  }
  // Written behind the app's back: drop its in-memory copy now rather than when the NOTIFY comes back.
  t.app.get(ReferenceDataCache).invalidate();
}

/** Adds a network (with a deposit address) to a supported token. */
export async function addTokenNetwork(t: TestApp, coinId: string, network: string, address: string | null = null): Promise<void> {
  const db = t.app.get<Database>(DATABASE);
  await db.execute(
    sql`insert into token_networks (token_id, network, address, created_at) select id, ${network}, ${address}, now() + interval '1 second' from supported_tokens where coin_id = ${coinId} and deleted_at is null on conflict do nothing`,
  );
  t.app.get(ReferenceDataCache).invalidate();
}

export interface WalletApp extends TestApp {
  admin: string;
}

/** The app with bitcoin 50000, ethereum 2500, tether 1, all three supported, and an admin token. */
export async function startWalletApp(kind: 'pglite' | 'postgres', env: Record<string, string> = {}, options: StartTestAppOptions = {}): Promise<WalletApp> {
  const t = await startTestApp(kind, env, options);
  await seedCoins(t, PRICES);
  await supportTokens(t, Object.keys(PRICES));
  // Tether lives on two networks here, as in production: ERC-20 (its first network) and TRC-20.
  await addTokenNetwork(t, 'tether', 'tron');
  const admin = (await loginAdmin(t.http)).token;
  return Object.assign(t, { admin });
}

export async function newCustomer(t: WalletApp) {
  return signUp(t.http);
}

/** Adds `usd` worth of `token` to the customer through the admin API. */
export async function fund(t: WalletApp, userId: string, token: string, usd: string | number): Promise<void> {
  await t.http
    .post(`/api/admin/update-balance/${userId}`)
    .set(bearer(t.admin))
    .send({ token, amount: usd, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: token })
    .expect(200);
}

/** Quantities held by token (exact strings). */
export async function holdings(t: WalletApp, token: string): Promise<Record<string, string>> {
  const response = await t.http.get('/api/user/get-user-balance').set(bearer(token)).expect(200);
  return Object.fromEntries((response.body.balances as Array<{ token: string; coinAmount: string }>).map((b) => [b.token, b.coinAmount]));
}

/** The ledger invariant, through the admin route. */
export async function expectLedgerClean(t: WalletApp): Promise<void> {
  const response = await t.http.get('/api/admin/ledger/check').set(bearer(t.admin)).expect(200);
  expect(response.body.mismatches).toEqual([]);
  expect(response.body.negativeCustomerBalances).toBe(0);
  expect(response.body.tokens.filter((x: { ok: boolean }) => !x.ok)).toEqual([]);
  expect(response.body.ok).toBe(true);
}

/** Plain fetch against a listening app (many truly concurrent requests without supertest's per-request server). */
export async function call(
  t: WalletApp,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
