// Generates coins-snapshot.json: the offline market (top 100 coins), shaped like CoinGecko's /coins/markets with
// sparkline=true. Run once and commit the output: `node src/modules/market/snapshot/generate-snapshot.mjs`.
// Prices and market caps are rounded figures of a recent day; the 7-day hourly sparkline is a seeded random walk
// that ends at the price and passes through the price 24 hours ago implied by the 24h change.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const iconsDir = join(dirname(require.resolve('cryptocurrency-icons/package.json')), '128', 'color');

// [id, symbol, name, price USD, market cap USD, 24h change %]
const COINS = [
  ['bitcoin', 'btc', 'Bitcoin', 97234.12, 1925e9, 1.84],
  ['ethereum', 'eth', 'Ethereum', 3412.57, 411.2e9, 2.61],
  ['tether', 'usdt', 'Tether', 1.0002, 140.3e9, 0.02],
  ['ripple', 'xrp', 'XRP', 2.3145, 132.4e9, -1.12],
  ['binancecoin', 'bnb', 'BNB', 689.41, 100.6e9, 0.47],
  ['solana', 'sol', 'Solana', 189.73, 91.4e9, 3.95],
  ['dogecoin', 'doge', 'Dogecoin', 0.3318, 49.1e9, -2.34],
  ['usd-coin', 'usdc', 'USDC', 0.9999, 44.2e9, -0.01],
  ['cardano', 'ada', 'Cardano', 0.9512, 33.5e9, 1.07],
  ['staked-ether', 'steth', 'Lido Staked Ether', 3409.88, 33.1e9, 2.58],
  ['tron', 'trx', 'TRON', 0.2487, 21.5e9, 0.88],
  ['avalanche-2', 'avax', 'Avalanche', 36.12, 14.8e9, 4.21],
  ['chainlink', 'link', 'Chainlink', 22.54, 14.4e9, 2.13],
  ['the-open-network', 'ton', 'Toncoin', 5.21, 13.2e9, -0.64],
  ['sui', 'sui', 'Sui', 4.23, 12.9e9, 6.42],
  ['stellar', 'xlm', 'Stellar', 0.4231, 12.8e9, -1.87],
  ['wrapped-bitcoin', 'wbtc', 'Wrapped Bitcoin', 97112.5, 12.5e9, 1.81],
  ['shiba-inu', 'shib', 'Shiba Inu', 0.00002112, 12.4e9, -0.95],
  ['wrapped-steth', 'wsteth', 'Wrapped stETH', 4051.3, 11.1e9, 2.55],
  ['hedera-hashgraph', 'hbar', 'Hedera', 0.2914, 11.1e9, 3.37],
  ['polkadot', 'dot', 'Polkadot', 6.82, 10.5e9, 1.46],
  ['bitcoin-cash', 'bch', 'Bitcoin Cash', 441.2, 8.74e9, 0.73],
  ['leo-token', 'leo', 'LEO Token', 9.18, 8.49e9, 0.12],
  ['uniswap', 'uni', 'Uniswap', 13.47, 8.09e9, 3.02],
  ['weth', 'weth', 'WETH', 3411.9, 8.02e9, 2.6],
  ['litecoin', 'ltc', 'Litecoin', 104.83, 7.91e9, -0.41],
  ['hyperliquid', 'hype', 'Hyperliquid', 23.96, 7.98e9, 5.12],
  ['pepe', 'pepe', 'Pepe', 0.00001714, 7.21e9, -3.48],
  ['wrapped-eeth', 'weeth', 'Wrapped eETH', 3583.2, 6.52e9, 2.63],
  ['near', 'near', 'NEAR Protocol', 5.09, 6.18e9, 2.28],
  ['ethena-usde', 'usde', 'Ethena USDe', 0.9996, 5.98e9, 0.01],
  ['dai', 'dai', 'Dai', 1.0001, 5.31e9, 0.0],
  ['aptos', 'apt', 'Aptos', 8.93, 5.19e9, 1.66],
  ['aave', 'aave', 'Aave', 331.6, 4.98e9, 4.87],
  ['internet-computer', 'icp', 'Internet Computer', 9.81, 4.64e9, -1.31],
  ['bitget-token', 'bgb', 'Bitget Token', 6.47, 4.52e9, 0.94],
  ['ethereum-classic', 'etc', 'Ethereum Classic', 26.14, 3.94e9, 0.51],
  ['crypto-com-chain', 'cro', 'Cronos', 0.1418, 3.83e9, -0.77],
  ['mantle', 'mnt', 'Mantle', 1.151, 3.79e9, 1.25],
  ['render-token', 'render', 'Render', 7.12, 3.68e9, 5.63],
  ['monero', 'xmr', 'Monero', 199.7, 3.68e9, 0.33],
  ['whitebit', 'wbt', 'WhiteBIT Coin', 25.13, 3.62e9, 0.18],
  ['vechain', 'vet', 'VeChain', 0.04523, 3.66e9, 2.94],
  ['polygon-ecosystem-token', 'pol', 'POL (ex-MATIC)', 0.4612, 3.52e9, 1.83],
  ['bittensor', 'tao', 'Bittensor', 461.3, 3.41e9, 7.21],
  ['fetch-ai', 'fet', 'Artificial Superintelligence Alliance', 1.312, 3.33e9, 3.56],
  ['arbitrum', 'arb', 'Arbitrum', 0.7521, 3.21e9, 2.47],
  ['filecoin', 'fil', 'Filecoin', 5.08, 3.08e9, -0.58],
  ['algorand', 'algo', 'Algorand', 0.3611, 2.98e9, 1.14],
  ['ethena', 'ena', 'Ethena', 0.9483, 2.91e9, 8.36],
  ['kaspa', 'kas', 'Kaspa', 0.1132, 2.88e9, -2.05],
  ['okb', 'okb', 'OKB', 48.21, 2.89e9, 0.67],
  ['cosmos', 'atom', 'Cosmos Hub', 6.51, 2.54e9, 0.92],
  ['celestia', 'tia', 'Celestia', 5.22, 2.49e9, 4.44],
  ['optimism', 'op', 'Optimism', 1.812, 2.41e9, 3.11],
  ['stacks', 'stx', 'Stacks', 1.523, 2.29e9, 2.76],
  ['injective-protocol', 'inj', 'Injective', 22.13, 2.16e9, 3.82],
  ['immutable-x', 'imx', 'Immutable', 1.302, 2.18e9, 1.59],
  ['fantom', 'ftm', 'Fantom', 0.7012, 1.97e9, 4.91],
  ['first-digital-usd', 'fdusd', 'First Digital USD', 0.9994, 1.96e9, -0.03],
  ['dogwifcoin', 'wif', 'dogwifhat', 1.914, 1.91e9, -4.12],
  ['ondo-finance', 'ondo', 'Ondo', 1.352, 1.88e9, 2.35],
  ['bonk', 'bonk', 'Bonk', 0.00002601, 1.87e9, -3.26],
  ['the-graph', 'grt', 'The Graph', 0.2011, 1.92e9, 1.77],
  ['theta-token', 'theta', 'Theta Network', 1.813, 1.81e9, 0.84],
  ['sei-network', 'sei', 'Sei', 0.3824, 1.71e9, 2.19],
  ['lido-dao', 'ldo', 'Lido DAO', 1.752, 1.57e9, 3.68],
  ['jasmycoin', 'jasmy', 'JasmyCoin', 0.03312, 1.63e9, -1.48],
  ['quant-network', 'qnt', 'Quant', 105.4, 1.53e9, 0.41],
  ['floki', 'floki', 'FLOKI', 0.0001502, 1.45e9, -2.77],
  ['rocket-pool-eth', 'reth', 'Rocket Pool ETH', 3812.4, 1.42e9, 2.59],
  ['pyth-network', 'pyth', 'Pyth Network', 0.3811, 1.38e9, 1.26],
  ['thorchain', 'rune', 'THORChain', 3.81, 1.3e9, 4.05],
  ['maker', 'mkr', 'Maker', 1451.2, 1.29e9, 1.97],
  ['gala', 'gala', 'GALA', 0.03412, 1.31e9, 2.42],
  ['the-sandbox', 'sand', 'The Sandbox', 0.5513, 1.33e9, 1.03],
  ['tezos', 'xtz', 'Tezos', 1.252, 1.29e9, -0.36],
  ['kucoin-shares', 'kcs', 'KuCoin Token', 10.52, 1.27e9, 0.27],
  ['flow', 'flow', 'Flow', 0.7514, 1.16e9, 1.38],
  ['eos', 'eos', 'EOS', 0.7512, 1.15e9, 0.62],
  ['curve-dao-token', 'crv', 'Curve DAO', 0.9021, 1.12e9, 5.17],
  ['jupiter-exchange-solana', 'jup', 'Jupiter', 0.8213, 1.11e9, 3.29],
  ['arweave', 'ar', 'Arweave', 16.03, 1.05e9, 2.71],
  ['helium', 'hnt', 'Helium', 6.21, 1.06e9, -1.64],
  ['iota', 'iota', 'IOTA', 0.2913, 1.02e9, 1.92],
  ['beam-2', 'beam', 'Beam', 0.02014, 1.0e9, -0.89],
  ['bitcoin-cash-sv', 'bsv', 'Bitcoin SV', 50.12, 0.99e9, 0.38],
  ['neo', 'neo', 'NEO', 14.02, 0.99e9, 0.73],
  ['decentraland', 'mana', 'Decentraland', 0.5012, 0.95e9, 1.21],
  ['axie-infinity', 'axs', 'Axie Infinity', 6.12, 0.95e9, 0.96],
  ['zcash', 'zec', 'Zcash', 55.3, 0.89e9, -0.52],
  ['pendle', 'pendle', 'Pendle', 5.31, 0.85e9, 6.03],
  ['chiliz', 'chz', 'Chiliz', 0.0902, 0.8e9, 0.45],
  ['conflux-token', 'cfx', 'Conflux', 0.1702, 0.8e9, 1.58],
  ['gnosis', 'gno', 'Gnosis', 301.2, 0.78e9, 0.87],
  ['mina-protocol', 'mina', 'Mina Protocol', 0.6513, 0.75e9, 2.04],
  ['pancakeswap-token', 'cake', 'PancakeSwap', 2.412, 0.68e9, 1.49],
  ['ecash', 'xec', 'eCash', 0.00003412, 0.67e9, -0.61],
  ['klay-token', 'klay', 'Klaytn', 0.2013, 0.6e9, 0.29],
  ['1inch', '1inch', '1inch', 0.4312, 0.59e9, 2.37],
];

const STABLE = new Set(['usdt', 'usdc', 'usde', 'dai', 'fdusd']);
const MEME = new Set(['doge', 'shib', 'pepe', 'wif', 'bonk', 'floki']);

function seededRandom(seed) {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0) || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

function gaussian(random) {
  const u = Math.max(random(), 1e-12);
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const significant = (value, digits = 8) => Number(value.toPrecision(digits));

const HOURS = 168;
const asOf = new Date(process.env.SNAPSHOT_AS_OF ?? Date.now());
asOf.setUTCMinutes(0, 0, 0);

const sorted = [...COINS].sort((a, b) => b[4] - a[4]);
const coins = sorted.map(([id, symbol, name, price, marketCap, change], index) => {
  const random = seededRandom(id);
  const sigma = STABLE.has(symbol) ? 0.0003 : MEME.has(symbol) ? 0.012 : 0.006;
  // Log random walk, then bent piecewise-linearly so it passes through price/(1+change) 24 h ago and ends at price.
  const walk = [0];
  for (let i = 1; i < HOURS; i++) walk.push(walk[i - 1] + sigma * gaussian(random));
  const dayAgo = HOURS - 25;
  const targetDayAgo = Math.log(price / (1 + change / 100));
  const targetNow = Math.log(price);
  const startOffset = targetDayAgo - walk[dayAgo];
  const endOffset = targetNow - walk[HOURS - 1];
  const points = walk.map((w, i) => {
    const offset = i <= dayAgo ? startOffset : startOffset + ((endOffset - startOffset) * (i - dayAgo)) / (HOURS - 1 - dayAgo);
    return significant(Math.exp(w + offset));
  });
  const lastDay = points.slice(dayAgo);
  const image = existsSync(join(iconsDir, `${symbol}.png`)) ? `${symbol}.png` : 'generic.png';
  return {
    id,
    symbol,
    name,
    image,
    current_price: price,
    market_cap: Math.round(marketCap),
    market_cap_rank: index + 1,
    high_24h: significant(Math.max(...lastDay, price)),
    low_24h: significant(Math.min(...lastDay, price)),
    price_change_percentage_24h: change,
    last_updated: asOf.toISOString(),
    sparkline_in_7d: { price: points },
  };
});

const output = { source: 'coinpurse snapshot (rounded figures, generated sparklines)', as_of: asOf.toISOString(), coins };
writeFileSync(join(here, 'coins-snapshot.json'), JSON.stringify(output) + '\n');
const missing = coins.filter((c) => c.image === 'generic.png').map((c) => c.symbol);
console.log(`Wrote ${coins.length} coins as of ${output.as_of}; generic icon for: ${missing.join(', ') || 'none'}`);
