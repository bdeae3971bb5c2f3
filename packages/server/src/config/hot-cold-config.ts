import Decimal from 'decimal.js';
import { type ChainNetwork, isEvmNetwork, nativeDecimals } from './chain-params';

/**
 * The hot/cold split of a network's payouts (see docs/operate/cold-wallets-and-reserves.md): what the hot signer may pay by itself, and
 * where the rest is paid from once an admin has signed it offline.
 */
export interface HotColdSettings {
  /** Largest single payout the hot signer pays, in the network's own coin (e.g. "0.5" LTC); above: cold. */
  hotLimit?: string;
  /** Most the hot signer pays over any 24 hours, in the network's own coin; a payout that would pass it: cold. */
  hotDailyLimit?: string;
  /** UTXO family: a watch-only wallet of the node holding the cold wallet's public descriptors (funds the PSBTs). */
  coldWallet?: string;
  /** EVM family: the cold address (its key kept offline) that pays the transactions an admin signs offline. */
  coldAddress?: string;
}

/** The variables, after `CHAIN_<NETWORK>_`. */
export const HOT_COLD_SETTINGS = ['HOT_LIMIT', 'HOT_DAILY_LIMIT', 'COLD_WALLET', 'COLD_ADDRESS'] as const;

/**
 * `CHAIN_<NETWORK>_HOT_LIMIT`, `_HOT_DAILY_LIMIT`, `_COLD_WALLET` (UTXO) and `_COLD_ADDRESS` (EVM). A limit is a positive
 * decimal amount of the network's own coin; a limit needs the network's hot signer (`_SIGNER_URL`, passed as
 * `hotSigner`) and its cold side, since a payout above it can only be paid from there.
 */
export function parseHotCold(env: NodeJS.ProcessEnv, prefix: string, network: ChainNetwork, hotSigner: boolean, problems: string[]): HotColdSettings {
  const settings: HotColdSettings = {};
  const evm = isEvmNetwork(network);
  const decimals = nativeDecimals(network);
  for (const [name, key] of [
    ['HOT_LIMIT', 'hotLimit'],
    ['HOT_DAILY_LIMIT', 'hotDailyLimit'],
  ] as const) {
    const raw = env[`${prefix}${name}`]?.trim() || '';
    if (!raw) continue;
    const match = /^(\d{1,30})(?:\.(\d+))?$/.exec(raw);
    if (!match || (match[2] ?? '').length > decimals || !/[1-9]/.test(raw)) {
      problems.push(`${prefix}${name} must be a positive amount of the network's own coin with at most ${decimals} decimals (got "${raw.slice(0, 40)}")`);
      continue;
    }
    settings[key] = raw;
  }
  const coldWallet = env[`${prefix}COLD_WALLET`]?.trim() || '';
  if (coldWallet) {
    if (evm) problems.push(`${prefix}COLD_WALLET is for the UTXO family (a watch-only wallet of the node); ${network} uses ${prefix}COLD_ADDRESS`);
    else if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(coldWallet))
      problems.push(`${prefix}COLD_WALLET must be a node wallet name of letters, digits, ".", "_" or "-" (at most 64)`);
    else settings.coldWallet = coldWallet;
  }
  const coldAddress = env[`${prefix}COLD_ADDRESS`]?.trim() || '';
  if (coldAddress) {
    if (!evm) problems.push(`${prefix}COLD_ADDRESS is for the EVM family; ${network} uses ${prefix}COLD_WALLET (a watch-only wallet of the node)`);
    else if (!/^0x[0-9a-fA-F]{40}$/.test(coldAddress)) problems.push(`${prefix}COLD_ADDRESS must be an address (0x and 40 hex digits)`);
    else settings.coldAddress = coldAddress;
  }
  const cold = settings.coldWallet ?? settings.coldAddress;
  if ((cold || settings.hotLimit || settings.hotDailyLimit) && !hotSigner) {
    problems.push(`${prefix}HOT_LIMIT, _HOT_DAILY_LIMIT and the cold side need the network's hot signer: set ${prefix}SIGNER_URL too`);
  }
  if ((settings.hotLimit || settings.hotDailyLimit) && !cold) {
    problems.push(`${prefix}HOT_LIMIT and _HOT_DAILY_LIMIT need the cold side that pays above them: set ${prefix}${evm ? 'COLD_ADDRESS' : 'COLD_WALLET'}`);
  }
  if (settings.hotLimit && settings.hotDailyLimit && new Decimal(settings.hotLimit).gt(settings.hotDailyLimit)) {
    problems.push(`${prefix}HOT_LIMIT must not be larger than ${prefix}HOT_DAILY_LIMIT`);
  }
  return settings;
}
