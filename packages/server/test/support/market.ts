import type { TestApp } from './test-app';
import { CoinsRepository } from '../../src/modules/market/coins.repository';

/** Puts coins with known prices straight into the app's database (tests that need exact numbers). */
export async function seedCoins(t: TestApp, prices: Record<string, string>): Promise<void> {
  const repository = t.app.get(CoinsRepository);
  let rank = 1;
  await repository.upsertMany(
    Object.entries(prices).map(([id, price]) => ({
      id,
      symbol: SYMBOLS[id] ?? id.slice(0, 4),
      name: id.charAt(0).toUpperCase() + id.slice(1),
      image: `${SYMBOLS[id] ?? id.slice(0, 4)}.png`,
      currentPrice: price,
      marketCapRank: rank++,
      lastUpdated: new Date(),
      source: 'live' as const,
      sparkline7d: [Number(price)],
    })),
  );
}

const SYMBOLS: Record<string, string> = { bitcoin: 'btc', ethereum: 'eth', tether: 'usdt', solana: 'sol', ripple: 'xrp', litecoin: 'ltc' };
