import {
  CHAIN_KINDS,
  CHAIN_NETWORKS,
  type ChainKind,
  type ChainNetwork,
  DEFAULT_CONFIRMATIONS,
  DEFAULT_MAX_FEE,
  DEFAULT_POLL_SECONDS,
  DEFAULT_STUCK_MINUTES,
  DROP_AFTER_CONFIRMATIONS,
  isEvmNetwork,
  nativeDecimals,
} from './chain-params';
import { AccountKeyError, parseAccountKey } from './account-key';
import { HOT_COLD_SETTINGS, type HotColdSettings, parseHotCold } from './hot-cold-config';

/**
 * The `CHAIN_<NETWORK>_*` settings, read by both processes: the node connections (the API's watchers and payouts, the
 * signer's hot keys' networks), and the payout policy the API alone reads.
 */

/** One network's node connection (see docs/operate/chain-nodes.md). */
export interface ChainConnection {
  network: ChainNetwork;
  family: 'utxo' | 'evm';
  /** JSON-RPC URL; may carry credentials (`http://user:pass@host:port`): never log it, use `rpcUrlForLogs`. */
  rpcUrl: string;
  /** The URL without its credentials, for logs and the status screen. */
  rpcUrlForLogs: string;
  /** The operator's account-level extended public key (watch-only). */
  xpub: string;
  chain: ChainKind;
  confirmations: number;
  pollSeconds: number;
  /** Blocks after which a deposit orphaned before credit and not mined again is dropped (default 6 × confirmations). */
  dropAfterBlocks: number;
  /**
   * The signer process that pays this network's approved withdrawals (`CHAIN_<NETWORK>_SIGNER_URL`, see
   * docs/operate/signer.md): it alone holds the hot keys (the node wallet's RPC access, the EVM key file). Unset:
   * withdrawals on this network are settled by hand.
   */
  signerUrl?: string;
  /**
   * Cold wallets watched on this network (`CHAIN_<NETWORK>_COLD_ADDRESSES`, comma-separated): their balances count as
   * holdings on the Reserves screen; read-only, never spent by the app (see docs/operate/cold-wallets-and-reserves.md).
   */
  coldAddresses?: string[];
  /**
   * EVM family: sweep a deposit address's balance of a coin to the hot address once it is worth at least this many USD
   * (`CHAIN_<NETWORK>_SWEEP_MIN`; the native coin after its gas). Needs the signer (its key file holds the xprv); unset: no sweeps.
   */
  sweepMinUsd?: string;
  /** The hot limits and the cold side of the payouts (`CHAIN_<NETWORK>_HOT_LIMIT`, …; see docs/operate/cold-wallets-and-reserves.md). */
  hotCold?: HotColdSettings;
  /** Minutes an unmined payout waits before its fee is bumped (`CHAIN_<NETWORK>_STUCK_MINUTES`; fractions allowed). */
  stuckMinutes: number;
  /** The most one payout may pay as network fee, a decimal amount of the network's own coin (`CHAIN_<NETWORK>_MAX_FEE`). */
  maxFee: string;
}

/** `CHAIN_<NETWORK>_…`: the network id upper-cased with `-` as `_` (CHAIN_BITCOIN_CASH_RPC_URL). */
export function chainEnvPrefix(network: ChainNetwork): string {
  return `CHAIN_${network.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * The per-network settings only the signer process reads (src/signer/signer-config.ts): its keys — the node wallet it
 * signs with, through its own RPC user, and the EVM key file. The API refuses them, so no key ever sits in the API's
 * environment. (Named here, read there: the key-boundary check tells a module that names them from one that reads them.)
 */
export const SIGNER_ONLY_SETTINGS = ['WALLET', 'KEY_FILE'] as const;

/**
 * The API's refusal of the signer's settings, said first: an operator who put the signer's keys in the API's env file
 * reads the real cause on the first line, not a consequence of it.
 */
export function signerSettingsProblems(env: NodeJS.ProcessEnv): string[] {
  return CHAIN_NETWORKS.flatMap((network) =>
    SIGNER_ONLY_SETTINGS.filter((setting) => env[`${chainEnvPrefix(network)}${setting}`]?.trim()).map(
      (setting) =>
        `${chainEnvPrefix(network)}${setting} is a setting of the signer process (node dist/signer.js), not of the API: it belongs in the signer's own env file (see signer.env.example). Here set ${chainEnvPrefix(network)}SIGNER_URL and SIGNER_TOKEN instead`,
    ),
  );
}

const CHAIN_SETTINGS = [
  'RPC_URL',
  'XPUB',
  'CHAIN',
  'CONFIRMATIONS',
  'POLL_SECONDS',
  'DROP_AFTER_BLOCKS',
  'SIGNER_URL',
  'COLD_ADDRESSES',
  'SWEEP_MIN',
  'STUCK_MINUTES',
  'MAX_FEE',
  ...HOT_COLD_SETTINGS,
] as const;

/**
 * The node connections: a network with an RPC URL needs its XPUB; the XPUB must fit the network and chain. `role`:
 * the API (which refuses the signer's settings and reads the payout policy) or the signer process (which reads its
 * own settings itself, see src/signer/signer-config.ts, and none of the policy).
 */
export function parseChains(
  env: NodeJS.ProcessEnv,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
  role: 'api' | 'signer',
): ChainConnection[] {
  // The signer's settings on a real network are the API's concern first (signerSettingsProblems); here only unknown networks.
  const settings: readonly string[] = [...CHAIN_SETTINGS, ...SIGNER_ONLY_SETTINGS];
  const known = new Set(CHAIN_NETWORKS.flatMap((network) => settings.map((setting) => `${chainEnvPrefix(network)}${setting}`)));
  const names = new RegExp(`^CHAIN_[A-Z0-9_]+_(${settings.join('|')})$`);
  for (const name of Object.keys(env)) {
    if (names.test(name) && !known.has(name) && env[name]) {
      problems.push(`${name}: no such network can be connected to a node (${CHAIN_NETWORKS.join(', ')})`);
    }
  }
  const chains: ChainConnection[] = [];
  for (const network of CHAIN_NETWORKS) {
    const prefix = chainEnvPrefix(network);
    const rawUrl = env[`${prefix}RPC_URL`]?.trim() || '';
    const xpub = env[`${prefix}XPUB`]?.trim() || '';
    const chainRaw = (env[`${prefix}CHAIN`]?.trim() || 'mainnet').toLowerCase();
    if (!rawUrl && !xpub) {
      if (env[`${prefix}SIGNER_URL`]?.trim()) problems.push(`${prefix}SIGNER_URL needs the network's node: set ${prefix}RPC_URL and ${prefix}XPUB too`);
      if (env[`${prefix}COLD_ADDRESSES`]?.trim()) problems.push(`${prefix}COLD_ADDRESSES needs the network's node: set ${prefix}RPC_URL and ${prefix}XPUB too`);
      for (const setting of HOT_COLD_SETTINGS) {
        if (env[`${prefix}${setting}`]?.trim()) problems.push(`${prefix}${setting} needs the network's node: set ${prefix}RPC_URL and ${prefix}XPUB too`);
      }
      continue;
    }
    if (!rawUrl || !xpub) {
      problems.push(`${prefix}RPC_URL and ${prefix}XPUB must be set together`);
      continue;
    }
    let parsedUrl: URL | undefined;
    try {
      parsedUrl = new URL(rawUrl);
      if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') parsedUrl = undefined;
    } catch {
      parsedUrl = undefined;
    }
    // The message never repeats the URL: it may carry the node's password.
    if (!parsedUrl) problems.push(`${prefix}RPC_URL must be an http or https URL`);
    if (!(CHAIN_KINDS as readonly string[]).includes(chainRaw)) problems.push(`${prefix}CHAIN must be mainnet, testnet or regtest (got "${chainRaw}")`);
    const chain = ((CHAIN_KINDS as readonly string[]).includes(chainRaw) ? chainRaw : 'mainnet') as ChainKind;
    try {
      parseAccountKey(network, chain, xpub);
    } catch (error) {
      if (!(error instanceof AccountKeyError)) throw error;
      problems.push(`${prefix}XPUB ${error.message}`);
    }
    const confirmations = int(`${prefix}CONFIRMATIONS`, DEFAULT_CONFIRMATIONS[network], 1, 10_000);
    const pollSeconds = int(`${prefix}POLL_SECONDS`, DEFAULT_POLL_SECONDS[network], 1, 3600);
    const dropAfterBlocks = int(`${prefix}DROP_AFTER_BLOCKS`, DROP_AFTER_CONFIRMATIONS * confirmations, 1, 1_000_000);
    const { stuckMinutes, maxFee } = parseFeeSettings(env, prefix, network, problems);
    const family = isEvmNetwork(network) ? ('evm' as const) : ('utxo' as const);
    if (role === 'signer') {
      if (parsedUrl) {
        const rpcUrlForLogs = urlWithoutCredentials(parsedUrl);
        chains.push({ network, family, rpcUrl: rawUrl, rpcUrlForLogs, xpub, chain, confirmations, pollSeconds, dropAfterBlocks, stuckMinutes, maxFee });
      }
      continue;
    }
    const signerUrl = parseSignerUrl(env, prefix, problems);
    const coldAddresses = parseColdAddresses(env, prefix, problems);
    const sweepMinUsd = parseSweepMin(env, prefix, network, signerUrl, problems);
    const hotCold = parseHotCold(env, prefix, network, Boolean(signerUrl), problems);
    if (!parsedUrl) continue;
    chains.push({
      network,
      family,
      rpcUrl: rawUrl,
      rpcUrlForLogs: urlWithoutCredentials(parsedUrl),
      xpub,
      chain,
      confirmations,
      pollSeconds,
      dropAfterBlocks,
      ...(signerUrl ? { signerUrl } : {}),
      ...(coldAddresses.length ? { coldAddresses } : {}),
      ...(sweepMinUsd !== undefined ? { sweepMinUsd } : {}),
      ...(Object.keys(hotCold).length ? { hotCold } : {}),
      stuckMinutes,
      maxFee,
    });
  }
  return chains;
}

/**
 * `CHAIN_<NETWORK>_STUCK_MINUTES` (a positive number of minutes, fractions allowed: tests use a few seconds) and
 * `CHAIN_<NETWORK>_MAX_FEE` (a positive decimal amount of the network's own coin, at most its decimals: 8 on the UTXO
 * chains, 18 on the EVM ones).
 */
function parseFeeSettings(env: NodeJS.ProcessEnv, prefix: string, network: ChainNetwork, problems: string[]): { stuckMinutes: number; maxFee: string } {
  let stuckMinutes = DEFAULT_STUCK_MINUTES[network];
  const stuckRaw = env[`${prefix}STUCK_MINUTES`]?.trim() || '';
  if (stuckRaw) {
    if (/^\d{1,6}(\.\d{1,6})?$/.test(stuckRaw) && Number(stuckRaw) > 0) stuckMinutes = Number(stuckRaw);
    else problems.push(`${prefix}STUCK_MINUTES must be a positive number of minutes such as 30 or 0.5 (got "${stuckRaw}")`);
  }
  let maxFee = DEFAULT_MAX_FEE[network];
  const maxFeeRaw = env[`${prefix}MAX_FEE`]?.trim() || '';
  if (maxFeeRaw) {
    const decimals = nativeDecimals(network);
    if (new RegExp(`^\\d{1,12}(\\.\\d{1,${decimals}})?$`).test(maxFeeRaw) && /[1-9]/.test(maxFeeRaw)) maxFee = maxFeeRaw;
    else problems.push(`${prefix}MAX_FEE must be a positive amount of the network's own coin with at most ${decimals} decimals (got "${maxFeeRaw}")`);
  }
  return { stuckMinutes, maxFee };
}

/** Cold addresses watched per network at most (each is read from the node at every reserves check). */
const MAX_COLD_ADDRESSES = 100;

/**
 * `CHAIN_<NETWORK>_COLD_ADDRESSES`: comma-separated addresses, each once. Only their form is checked here (the
 * configuration sits below the address validators): the Reserves service checks each against the network's validator
 * when the app starts and refuses to start otherwise.
 */
function parseColdAddresses(env: NodeJS.ProcessEnv, prefix: string, problems: string[]): string[] {
  const entries = (env[`${prefix}COLD_ADDRESSES`] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const problem = entries.some((entry) => !/^[A-Za-z0-9:]{14,120}$/.test(entry))
    ? 'must be addresses separated by commas'
    : new Set(entries).size !== entries.length
      ? 'names an address twice'
      : entries.length > MAX_COLD_ADDRESSES
        ? `may name at most ${MAX_COLD_ADDRESSES} addresses`
        : undefined;
  if (!problem) return entries;
  problems.push(`${prefix}COLD_ADDRESSES ${problem}`);
  return [];
}

/** `CHAIN_<NETWORK>_SWEEP_MIN`: a USD amount; sweeps need the signer (its key file holds the deposit addresses' xprv). */
function parseSweepMin(env: NodeJS.ProcessEnv, prefix: string, network: ChainNetwork, signerUrl: string | undefined, problems: string[]): string | undefined {
  const raw = env[`${prefix}SWEEP_MIN`]?.trim() || '';
  if (!raw) return undefined;
  if (!isEvmNetwork(network)) {
    problems.push(`${prefix}SWEEP_MIN is for the EVM family (a UTXO network's deposits are spent by its node wallet directly)`);
    return undefined;
  }
  if (!/^\d{1,15}(\.\d{1,8})?$/.test(raw)) {
    problems.push(`${prefix}SWEEP_MIN must be a USD amount such as 50 (got "${raw.slice(0, 40)}")`);
    return undefined;
  }
  if (!signerUrl) {
    problems.push(`${prefix}SWEEP_MIN needs the signer process (${prefix}SIGNER_URL), whose key file holds the account's extended private key (xprv)`);
    return undefined;
  }
  return raw;
}

/** `CHAIN_<NETWORK>_SIGNER_URL`: the signer process's http(s) URL, without credentials (the token is SIGNER_TOKEN). */
function parseSignerUrl(env: NodeJS.ProcessEnv, prefix: string, problems: string[]): string | undefined {
  const raw = env[`${prefix}SIGNER_URL`]?.trim() || '';
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password) return raw.replace(/\/+$/, '');
  } catch {
    // refused below
  }
  problems.push(`${prefix}SIGNER_URL must be an http or https URL without credentials (the token is SIGNER_TOKEN)`);
  return undefined;
}

/** A URL without user, password, query or fragment (RPC URLs may carry an API key in any of them). */
export function urlWithoutCredentials(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
