import {
  CHAIN_KINDS,
  CHAIN_NETWORKS,
  type ChainKind,
  type ChainNetwork,
  DEFAULT_CONFIRMATIONS,
  DEFAULT_POLL_SECONDS,
  DEFAULT_STUCK_MINUTES,
  DROP_AFTER_CONFIRMATIONS,
  DEFAULT_UNMINED_DROP_AFTER_BLOCKS,
  isEvmNetwork,
} from './chain-params';
import { AccountKeyError, parseAccountKey } from './account-key';
import { HOT_COLD_SETTINGS, type HotColdSettings, parseHotCold } from './hot-cold-config';

/**
 * The `CHAIN_<NETWORK>_*` settings. Both processes read the node connection (`_RPC_URL`, `_XPUB`, `_CHAIN`); the API
 * alone reads the deposit and payout policy, the signer process alone its keys and the fee ceiling. Each refuses the
 * other's settings with a first line naming the process they belong to.
 */

/** One network's node as both processes read it: the connection and the operator's account key. */
export interface ChainNodeSettings {
  network: ChainNetwork;
  family: 'utxo' | 'evm';
  /** JSON-RPC URL; may carry credentials (`http://user:pass@host:port`): never log it, use `rpcUrlForLogs`. */
  rpcUrl: string;
  /** The URL without its credentials, for logs and the status screen. */
  rpcUrlForLogs: string;
  /** The operator's account-level extended public key (watch-only). */
  xpub: string;
  chain: ChainKind;
}

/** One network's node connection as the API reads it, with its deposit and payout policy (see docs/operate/chain-nodes.md). */
export interface ChainConnection extends ChainNodeSettings {
  confirmations: number;
  pollSeconds: number;
  /** Blocks after which a deposit orphaned before credit and not mined again is dropped (default 6 × confirmations). */
  dropAfterBlocks: number;
  /**
   * Blocks after which a deposit seen in the mempool and never mined is dropped (CHAIN_<NETWORK>_UNMINED_DROP_AFTER_BLOCKS,
   * default about three days of blocks); one the node no longer has (replaced, conflicted) is dropped at once.
   */
  unminedDropAfterBlocks: number;
  /**
   * The signer process that pays this network's approved withdrawals (`CHAIN_<NETWORK>_SIGNER_URL`, see
   * docs/operate/signer.md): it alone holds the hot keys (the node wallet's RPC access, the EVM key file) and the fee
   * ceiling. Unset: withdrawals on this network are settled by hand.
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
}

/** `CHAIN_<NETWORK>_…`: the network id upper-cased with `-` as `_` (CHAIN_BITCOIN_CASH_RPC_URL). */
export function chainEnvPrefix(network: ChainNetwork): string {
  return `CHAIN_${network.toUpperCase().replace(/-/g, '_')}_`;
}

/** The node connection, read by both processes. */
const NODE_SETTINGS = ['RPC_URL', 'XPUB', 'CHAIN'] as const;

/**
 * The per-network settings only the signer process reads (src/signer/signer-config.ts): its keys — the node wallet it
 * signs with, through its own RPC user, and the EVM key file — and the fee ceiling it signs under (it tells the API
 * what it refused and why). The API refuses them, so no key ever sits in the API's environment and the ceiling has one
 * source. (Named here, read there: the key-boundary check tells a module that names them from one that reads them.)
 */
export const SIGNER_ONLY_SETTINGS = ['WALLET', 'KEY_FILE', 'MAX_FEE'] as const;

/** The per-network settings only the API reads: the deposit watcher, the payout and sweep jobs, the cold side, the reserves. */
export const API_ONLY_SETTINGS = [
  'CONFIRMATIONS',
  'POLL_SECONDS',
  'DROP_AFTER_BLOCKS',
  'UNMINED_DROP_AFTER_BLOCKS',
  'SIGNER_URL',
  'COLD_ADDRESSES',
  'SWEEP_MIN',
  'STUCK_MINUTES',
  ...HOT_COLD_SETTINGS,
] as const;

/**
 * The API's refusal of the signer's settings, said first: an operator who put the signer's keys in the API's env file
 * reads the real cause on the first line, not a consequence of it.
 */
export function signerSettingsProblems(env: NodeJS.ProcessEnv): string[] {
  return settingsOfTheOtherProcess(env, SIGNER_ONLY_SETTINGS, (name, prefix) =>
    name.endsWith('MAX_FEE')
      ? `${name} is a setting of the signer process (node dist/signer.js), not of the API: it belongs in the signer's own env file (see signer.env.example), where the signer enforces it and names it in what it refuses`
      : `${name} is a setting of the signer process (node dist/signer.js), not of the API: it belongs in the signer's own env file (see signer.env.example). Here set ${prefix}SIGNER_URL and SIGNER_TOKEN instead`,
  );
}

/** The signer's refusal of the API's settings (the mirror of signerSettingsProblems), said first too. */
export function apiSettingsProblems(env: NodeJS.ProcessEnv): string[] {
  return settingsOfTheOtherProcess(
    env,
    API_ONLY_SETTINGS,
    (name) => `${name} is a setting of the API (node dist/main.js), not of the signer: it belongs in the API's .env (see .env.example), not in signer.env`,
  );
}

function settingsOfTheOtherProcess(env: NodeJS.ProcessEnv, settings: readonly string[], problem: (name: string, prefix: string) => string): string[] {
  return CHAIN_NETWORKS.flatMap((network) => {
    const prefix = chainEnvPrefix(network);
    return settings.filter((setting) => env[`${prefix}${setting}`]?.trim()).map((setting) => problem(`${prefix}${setting}`, prefix));
  });
}

/** One network's node settings as read: unset (neither RPC URL nor XPUB), or set (`node` null when they are not valid). */
export interface ChainNodeEntry {
  network: ChainNetwork;
  prefix: string;
  /** `_RPC_URL` and `_XPUB` are both set (one without the other is a problem already reported). */
  set: boolean;
  /** The valid connection; null when unset or not valid (the problems say why). */
  node: ChainNodeSettings | null;
}

/**
 * The node connection of every network, as both processes read it: a network with an RPC URL needs its XPUB; the
 * XPUB must fit the network and chain. A `CHAIN_<NAME>_<SETTING>` of no known network is refused.
 */
export function parseChainNodes(env: NodeJS.ProcessEnv, problems: string[]): ChainNodeEntry[] {
  const settings: readonly string[] = [...NODE_SETTINGS, ...API_ONLY_SETTINGS, ...SIGNER_ONLY_SETTINGS];
  const known = new Set(CHAIN_NETWORKS.flatMap((network) => settings.map((setting) => `${chainEnvPrefix(network)}${setting}`)));
  const names = new RegExp(`^CHAIN_[A-Z0-9_]+_(${settings.join('|')})$`);
  for (const name of Object.keys(env)) {
    if (names.test(name) && !known.has(name) && env[name]) {
      problems.push(`${name}: no such network can be connected to a node (${CHAIN_NETWORKS.join(', ')})`);
    }
  }
  return CHAIN_NETWORKS.map((network) => {
    const prefix = chainEnvPrefix(network);
    const rawUrl = env[`${prefix}RPC_URL`]?.trim() || '';
    const xpub = env[`${prefix}XPUB`]?.trim() || '';
    const chainRaw = (env[`${prefix}CHAIN`]?.trim() || 'mainnet').toLowerCase();
    if (!rawUrl && !xpub) return { network, prefix, set: false, node: null };
    if (!rawUrl || !xpub) {
      problems.push(`${prefix}RPC_URL and ${prefix}XPUB must be set together`);
      return { network, prefix, set: false, node: null };
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
    const family = isEvmNetwork(network) ? ('evm' as const) : ('utxo' as const);
    const node = parsedUrl ? { network, family, rpcUrl: rawUrl, rpcUrlForLogs: urlWithoutCredentials(parsedUrl), xpub, chain } : null;
    return { network, prefix, set: true, node };
  });
}

/** A setting that only makes sense with the network's node, set without it. */
export function needsNodeProblem(prefix: string, setting: string): string {
  return `${prefix}${setting} needs the network's node: set ${prefix}RPC_URL and ${prefix}XPUB too`;
}

/** The API's node connections with their deposit and payout policy (the signer's settings are refused by signerSettingsProblems). */
export function parseChains(
  env: NodeJS.ProcessEnv,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
): ChainConnection[] {
  const chains: ChainConnection[] = [];
  for (const { network, prefix, set, node } of parseChainNodes(env, problems)) {
    if (!set) {
      for (const setting of ['SIGNER_URL', 'COLD_ADDRESSES', ...HOT_COLD_SETTINGS]) {
        if (env[`${prefix}${setting}`]?.trim()) problems.push(needsNodeProblem(prefix, setting));
      }
      continue;
    }
    const confirmations = int(`${prefix}CONFIRMATIONS`, DEFAULT_CONFIRMATIONS[network], 1, 10_000);
    const pollSeconds = int(`${prefix}POLL_SECONDS`, DEFAULT_POLL_SECONDS[network], 1, 3600);
    const dropAfterBlocks = int(`${prefix}DROP_AFTER_BLOCKS`, DROP_AFTER_CONFIRMATIONS * confirmations, 1, 1_000_000);
    const unminedDropAfterBlocks = int(`${prefix}UNMINED_DROP_AFTER_BLOCKS`, DEFAULT_UNMINED_DROP_AFTER_BLOCKS[network], 1, 1_000_000);
    const stuckMinutes = parseStuckMinutes(env, prefix, network, problems);
    const signerUrl = parseSignerUrl(env, prefix, problems);
    const coldAddresses = parseColdAddresses(env, prefix, problems);
    const sweepMinUsd = parseSweepMin(env, prefix, network, signerUrl, problems);
    const hotCold = parseHotCold(env, prefix, network, Boolean(signerUrl), problems);
    if (!node) continue;
    chains.push({
      ...node,
      confirmations,
      pollSeconds,
      dropAfterBlocks,
      unminedDropAfterBlocks,
      ...(signerUrl ? { signerUrl } : {}),
      ...(coldAddresses.length ? { coldAddresses } : {}),
      ...(sweepMinUsd !== undefined ? { sweepMinUsd } : {}),
      ...(Object.keys(hotCold).length ? { hotCold } : {}),
      stuckMinutes,
    });
  }
  return chains;
}

/** `CHAIN_<NETWORK>_STUCK_MINUTES`: a positive number of minutes, fractions allowed (tests use a few seconds). */
function parseStuckMinutes(env: NodeJS.ProcessEnv, prefix: string, network: ChainNetwork, problems: string[]): number {
  const raw = env[`${prefix}STUCK_MINUTES`]?.trim() || '';
  if (!raw) return DEFAULT_STUCK_MINUTES[network];
  if (/^\d{1,6}(\.\d{1,6})?$/.test(raw) && Number(raw) > 0) return Number(raw);
  problems.push(`${prefix}STUCK_MINUTES must be a positive number of minutes such as 30 or 0.5 (got "${raw}")`);
  return DEFAULT_STUCK_MINUTES[network];
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
