import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/common/errors';
import type { Principal } from '../../src/common/principal';
import { LedgerService } from '../../src/modules/ledger/ledger.service';
import { CoinsRepository } from '../../src/modules/market/coins.repository';
import { AdminDepositsService } from '../../src/modules/admin/admin-deposits.service';
import { TransactionStatusService } from '../../src/modules/admin/transaction-status.service';
import { TransactionVoidsService } from '../../src/modules/admin/transaction-voids.service';
import { BalanceAdjustmentsService } from '../../src/modules/admin/balance-adjustments.service';
import { SendsService } from '../../src/modules/wallet/sends.service';
import { SwapsService } from '../../src/modules/wallet/swaps.service';
import { DATABASE_KINDS } from '../support/databases';
import { ADDRESSES, newCustomer, startWalletApp, type WalletApp } from '../support/wallet';

/**
 * Model test: thousands of random deposit / approve / reject / send / swap / adjust / void / price-change steps run
 * through the real services and checked after each step against a tiny decimal model (balances; accepted or
 * refused with which status), with the ledger invariant checked along the way.
 */
const D = Decimal.clone({ precision: 80 });
const STEPS = Number(process.env.MODEL_STEPS ?? 2000);
const TOKENS = ['bitcoin', 'ethereum', 'tether'] as const;
type Token = (typeof TOKENS)[number];
const DECIMALS: Record<Token, number> = { bitcoin: 8, ethereum: 6, tether: 2 };
const STATUSES = ['pending', 'approved', 'rejected'] as const;
type Status = (typeof STATUSES)[number];

interface ModelTx {
  id: string;
  user: number;
  type: 'deposit' | 'withdrawal' | 'swap' | 'adjustment';
  token: Token;
  qty: Decimal;
  status: Status;
  voided: boolean;
  toToken?: Token;
  toQty?: Decimal;
  direction: 'in' | 'out';
}

/** Deterministic PRNG so a failure can be replayed (seed printed). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const floor = (value: Decimal, token: Token) => value.toDecimalPlaces(DECIMALS[token], Decimal.ROUND_DOWN);

describe.each(DATABASE_KINDS)('ledger model test on %s', (kind) => {
  let t: WalletApp;
  beforeAll(async () => {
    t = await startWalletApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${STEPS} random operations agree with a decimal model`, async () => {
    const seed = Number(process.env.MODEL_SEED ?? Date.now() % 1_000_000);
    const random = rng(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const admin = { deposits: t.app.get(AdminDepositsService), statuses: t.app.get(TransactionStatusService), voids: t.app.get(TransactionVoidsService) };
    const ledger = t.app.get(LedgerService);
    const coins = t.app.get(CoinsRepository);
    const adminActor = { id: (await t.http.get('/api/user/me').set({ Authorization: `Bearer ${t.admin}` })).body._id as string, role: 'admin' as const };

    const people = await Promise.all([newCustomer(t), newCustomer(t), newCustomer(t)]);
    const principals: Principal[] = people.map((p) => ({
      id: p._id,
      role: 'user',
      name: p.name,
      email: p.email,
      sessionId: '00000000-0000-0000-0000-000000000000',
    }));
    const balances = people.map(() => Object.fromEntries(TOKENS.map((k) => [k, new D(0)])) as Record<Token, Decimal>);
    const prices: Record<Token, Decimal> = { bitcoin: new D('50000'), ethereum: new D('2500'), tether: new D('1') };
    const txs: ModelTx[] = [];
    const counts: Record<string, { ok: number; refused: number }> = {};

    const usd = () => {
      const r = random();
      if (r < 0.05) return '0.0001';
      if (r < 0.1) return (5000 + random() * 50000).toFixed(2);
      return (0.01 + random() * 400).toFixed(2);
    };
    /** Runs the real call; returns the HTTP-ish status (200 for success). */
    const run = async (work: () => Promise<unknown>): Promise<{ status: number; value?: any; message?: string }> => {
      try {
        return { status: 200, value: await work() };
      } catch (error) {
        if (error instanceof DomainError) return { status: error.statusCode, message: error.message };
        throw error;
      }
    };
    const customerAt = (tx: ModelTx, status: Status) => (tx.type === 'deposit' ? status === 'approved' : status === 'rejected');

    let performed = 0;
    for (let step = 0; performed < STEPS; step++) {
      const op = pick(['deposit', 'deposit', 'modify', 'modify', 'send', 'send', 'swap', 'swap', 'swap', 'adjust', 'void', 'price'] as const);
      const u = Math.floor(random() * people.length);
      const token = pick(TOKENS);
      let expected: number;
      let outcome: { status: number; value?: any; message?: string };
      const context = () => `seed ${seed} step ${step} ${op}`;

      if (op === 'price') {
        const changed = pick(['bitcoin', 'ethereum'] as const);
        const next = changed === 'bitcoin' ? new D((20000 + random() * 60000).toFixed(2)) : new D((1000 + random() * 3000).toFixed(4));
        await coins.upsertMany([
          {
            id: changed,
            symbol: changed === 'bitcoin' ? 'btc' : 'eth',
            name: changed,
            image: '',
            currentPrice: next.toFixed(),
            lastUpdated: new Date(),
            source: 'live',
          },
        ]);
        prices[changed] = next;
        continue;
      } else if (op === 'deposit') {
        const amount = usd();
        const status = pick(STATUSES);
        const qty = floor(new D(amount).div(prices[token]), token);
        expected = qty.isZero() ? 400 : 200;
        outcome = await run(() => admin.deposits.deposit(adminActor, people[u]._id, { amount, status, network: token }));
        if (outcome.status === 200 && expected === 200) {
          txs.push({ id: outcome.value._id, user: u, type: 'deposit', token, qty, status, voided: false, direction: 'in' });
          if (status === 'approved') balances[u][token] = balances[u][token].add(qty);
        }
      } else if (op === 'send') {
        const amount = usd();
        const qty = floor(new D(amount).div(prices[token]), token);
        expected = qty.isZero() || balances[u][token].lt(qty) ? 400 : 200;
        const address = token === 'bitcoin' ? ADDRESSES.bitcoin : token === 'ethereum' ? ADDRESSES.ethereum : ADDRESSES.tetherTron;
        outcome = await run(() =>
          t.app.get(SendsService).send(principals[u], undefined, token, { transferData: { address, amount, symbol: token, coinAmount: '0' } }),
        );
        if (outcome.status === 200 && expected === 200) {
          txs.push({ id: outcome.value.transaction._id, user: u, type: 'withdrawal', token, qty, status: 'pending', voided: false, direction: 'out' });
          balances[u][token] = balances[u][token].sub(qty);
          expect(outcome.value.transaction.coinAmount, context()).toBe(qty.toFixed(DECIMALS[token]));
        }
      } else if (op === 'swap') {
        const to = pick(TOKENS.filter((x) => x !== token));
        const amount = usd();
        const fromQty = floor(new D(amount).div(prices[token]), token);
        const toQty = floor(fromQty.mul(prices[token]).div(prices[to]), to);
        expected = fromQty.isZero() || toQty.isZero() || balances[u][token].lt(fromQty) ? 400 : 200;
        outcome = await run(() => t.app.get(SwapsService).swap(principals[u], undefined, { amount, from: token, to }));
        if (outcome.status === 200 && expected === 200) {
          expect([outcome.value.from.coinAmount, outcome.value.to.coinAmount], context()).toEqual([
            fromQty.toFixed(DECIMALS[token]),
            toQty.toFixed(DECIMALS[to]),
          ]);
          txs.push({
            id: outcome.value.transaction._id,
            user: u,
            type: 'swap',
            token,
            qty: fromQty,
            toToken: to,
            toQty,
            status: 'approved',
            voided: false,
            direction: 'out',
          });
          balances[u][token] = balances[u][token].sub(fromQty);
          balances[u][to] = balances[u][to].add(toQty);
        }
      } else if (op === 'adjust') {
        const mode = random() < 0.6 ? 'yes' : 'no';
        const amount = mode === 'no' && random() < 0.2 ? '0' : usd();
        const qty = floor(new D(amount).div(prices[token]), token);
        const delta = mode === 'yes' ? qty : qty.sub(balances[u][token]);
        expected = mode === 'yes' && qty.isZero() ? 400 : 200;
        outcome = await run(() =>
          t.app.get(BalanceAdjustmentsService).updateBalance(adminActor, people[u]._id, { token, amount, type: mode, msg: `model ${step}` }),
        );
        if (outcome.status === 200 && expected === 200) {
          if (!delta.isZero()) {
            expect(outcome.value.transaction, context()).not.toBeNull();
            txs.push({
              id: outcome.value.transaction._id,
              user: u,
              type: 'adjustment',
              token,
              qty: delta.abs(),
              status: 'approved',
              voided: false,
              direction: delta.isPositive() ? 'in' : 'out',
            });
          } else {
            expect(outcome.value.transaction, context()).toBeNull();
          }
          balances[u][token] = balances[u][token].add(delta);
        }
      } else if (op === 'modify') {
        if (!txs.length) continue;
        const tx = pick(txs);
        const status = pick(STATUSES);
        if (tx.voided) expected = 404;
        else if (tx.type === 'swap' || tx.type === 'adjustment') expected = 409;
        else if (tx.status === status) expected = 200;
        else {
          const delta = (customerAt(tx, status) ? tx.qty : new D(0)).sub(customerAt(tx, tx.status) ? tx.qty : new D(0));
          expected = balances[tx.user][tx.token].add(delta).isNegative() ? 409 : 200;
          if (expected === 200) {
            balances[tx.user][tx.token] = balances[tx.user][tx.token].add(delta);
            tx.status = status;
          }
        }
        outcome = await run(() => admin.statuses.modify(adminActor, { tId: tx.id, modification: status }));
      } else {
        if (!txs.length) continue;
        const tx = pick(txs);
        const deltas: Array<[Token, Decimal]> = [];
        if (tx.type === 'deposit' && tx.status === 'approved') deltas.push([tx.token, tx.qty.neg()]);
        if (tx.type === 'withdrawal' && tx.status !== 'rejected') deltas.push([tx.token, tx.qty]);
        if (tx.type === 'swap') deltas.push([tx.toToken!, tx.toQty!.neg()], [tx.token, tx.qty]);
        if (tx.type === 'adjustment') deltas.push([tx.token, tx.direction === 'in' ? tx.qty.neg() : tx.qty]);
        if (tx.voided) expected = 404;
        else expected = deltas.some(([k, d]) => balances[tx.user][k].add(d).isNegative()) ? 409 : 200;
        outcome = await run(() => admin.voids.void(adminActor, tx.id));
        if (expected === 200) {
          for (const [k, d] of deltas) balances[tx.user][k] = balances[tx.user][k].add(d);
          tx.voided = true;
        }
      }

      expect(outcome.status, `${context()}: ${outcome.message ?? ''}`).toBe(expected);
      performed += 1;
      counts[op] ??= { ok: 0, refused: 0 };
      counts[op][outcome.status === 200 ? 'ok' : 'refused'] += 1;

      const actual = await ledger.customerBalances(people.map((p) => p._id));
      for (let i = 0; i < people.length; i++) {
        for (const k of TOKENS) {
          const row = actual.find((a) => a.userId === people[i]._id && a.token === k);
          expect(new D(row?.balance ?? 0).toFixed(DECIMALS[k]), `${context()} user ${i} ${k}`).toBe(balances[i][k].toFixed(DECIMALS[k]));
        }
      }
      if (performed % 100 === 0) expect((await ledger.check()).ok, context()).toBe(true);
    }

    expect(performed).toBe(STEPS);
    const final = await ledger.check();
    expect(final.ok).toBe(true);
    // The run exercised every path, both ways.
    for (const op of ['deposit', 'send', 'swap', 'adjust', 'modify', 'void']) expect(counts[op]?.ok ?? 0, `${op} accepted`).toBeGreaterThan(0);
    for (const op of ['send', 'swap', 'modify', 'void']) expect(counts[op]?.refused ?? 0, `${op} refused`).toBeGreaterThan(0);
  }, 240_000);
});
