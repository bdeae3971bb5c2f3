import { readFileSync, statSync } from 'node:fs';
import { apiSettingsProblems, type ChainNodeSettings, needsNodeProblem, parseChainNodes, SIGNER_ONLY_SETTINGS } from '../config/chain-settings';
import { type ChainNetwork, DEFAULT_MAX_FEE, nativeDecimals } from '../config/chain-params';
import { ConfigError, intSetting, LOG_LEVELS, type LogFormat, type LogLevelName, parseLogFormat } from '../config/settings';
import { parseAccountKey } from '../config/account-key';
import { type EvmKeyFile, EvmKeyFileError, isCounterpartOf, parseEvmKeyFile } from './evm-key-file';

/** One network the signer signs on: its node connection, the key it signs with and the fee ceiling it signs under. */
export interface SignerNetwork extends ChainNodeSettings {
  /** The most one payout may pay as network fee, a decimal amount of the network's own coin (`CHAIN_<NETWORK>_MAX_FEE`). */
  maxFee: string;
  /** UTXO family: the hot wallet of the node (`CHAIN_<NETWORK>_WALLET`), reached with this process's RPC user. */
  wallet?: string;
  /** EVM family: the keys of `CHAIN_<NETWORK>_KEY_FILE` (the hot key; the account's xprv for sweeps). */
  keys?: EvmKeyFile;
}

/** The signer process's environment, validated once at boot (docs/operate/signer.md). */
export interface SignerConfig {
  host: string;
  port: number;
  /** `SIGNER_TOKEN`: the bearer token the API sends (at least 32 characters). */
  token: string;
  /** PostgreSQL only: the signer re-reads every withdrawal it is asked to sign and keeps its own record there. */
  databaseUrl: string;
  logLevel: LogLevelName;
  logFormat: LogFormat;
  networks: SignerNetwork[];
}

/**
 * Reads only what the signer uses: its token, database, address and log settings, and per network the node
 * connection, the key and the fee ceiling. The API's settings are refused, said first (a signer.env copied from the
 * API's .env is a mistake to say plainly, not a value to ignore).
 */
export function loadSignerConfig(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = Boolean(process.stdout.isTTY)): SignerConfig {
  const problems: string[] = apiSettingsProblems(env);
  const int = intSetting(env, problems);
  const token = env.SIGNER_TOKEN ?? '';
  if (token.length < 32) problems.push('SIGNER_TOKEN must be set, at least 32 characters (the same value as the API)');
  const databaseUrl = env.DATABASE_URL?.trim() ?? '';
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push("DATABASE_URL must be the PostgreSQL URL of the API's database: the signer reads the approved withdrawals itself (PGlite cannot be shared)");
  }
  const host = env.SIGNER_HOST?.trim() || '127.0.0.1';
  const port = int('SIGNER_PORT', 3100, 0, 65535);
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase() as LogLevelName;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  // JSON unless a person is watching a terminal (the signer has no development mode of its own).
  const logFormat = parseLogFormat(env.LOG_FORMAT, stdoutIsTerminal, problems);

  const networks: SignerNetwork[] = [];
  for (const { network, prefix, set, node } of parseChainNodes(env, problems)) {
    if (!set) {
      for (const setting of SIGNER_ONLY_SETTINGS) if (env[`${prefix}${setting}`]?.trim()) problems.push(needsNodeProblem(prefix, setting));
      continue;
    }
    const maxFee = parseMaxFee(env, prefix, network, problems);
    if (!node) continue;
    const wallet = parseWalletName(env, prefix, node, problems);
    const keys = parseKeyFile(env, prefix, node, problems);
    if (wallet || keys) networks.push({ ...node, maxFee, ...(wallet ? { wallet } : {}), ...(keys ? { keys } : {}) });
  }
  if (!networks.length && !problems.length) {
    problems.push('the signer has no key: set CHAIN_<NETWORK>_RPC_URL, _XPUB and _WALLET (UTXO) or _KEY_FILE (EVM) for at least one network');
  }
  if (problems.length) throw new ConfigError(problems);
  return { host, port, token, databaseUrl, logLevel, logFormat, networks };
}

/**
 * `CHAIN_<NETWORK>_MAX_FEE`: a positive decimal amount of the network's own coin, at most its decimals (8 on the UTXO
 * chains, 18 on the EVM ones); the network's default when unset. The signer refuses to sign a payout above it and
 * bumps no fee past it; its refusals name it, which is how the API learns it.
 */
function parseMaxFee(env: NodeJS.ProcessEnv, prefix: string, network: ChainNetwork, problems: string[]): string {
  const raw = env[`${prefix}MAX_FEE`]?.trim() || '';
  if (!raw) return DEFAULT_MAX_FEE[network];
  const decimals = nativeDecimals(network);
  if (new RegExp(`^\\d{1,12}(\\.\\d{1,${decimals}})?$`).test(raw) && /[1-9]/.test(raw)) return raw;
  problems.push(`${prefix}MAX_FEE must be a positive amount of the network's own coin with at most ${decimals} decimals (got "${raw}")`);
  return DEFAULT_MAX_FEE[network];
}

/** `CHAIN_<NETWORK>_WALLET`: a wallet name of the node (UTXO family only; the EVM family signs with a key file). */
function parseWalletName(env: NodeJS.ProcessEnv, prefix: string, connection: ChainNodeSettings, problems: string[]): string | undefined {
  const wallet = env[`${prefix}WALLET`]?.trim() || '';
  if (!wallet) return undefined;
  if (connection.family === 'evm') {
    problems.push(`${prefix}WALLET is for the UTXO family (a wallet of the node); ${connection.network} payouts are signed with ${prefix}KEY_FILE`);
    return undefined;
  }
  // Bitcoin Core wallet names are path-like; the name goes into the RPC path /wallet/<name>, so keep it to safe characters.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(wallet)) {
    problems.push(`${prefix}WALLET must be a node wallet name of letters, digits, ".", "_" or "-" (at most 64)`);
    return undefined;
  }
  return wallet;
}

/**
 * `CHAIN_<NETWORK>_KEY_FILE` (EVM family): a file with the hot key (64 hex digits) and optionally the account's
 * extended private key for sweeps (the private counterpart of the XPUB), not readable by group or others. Read once,
 * here, by this process only.
 */
function parseKeyFile(env: NodeJS.ProcessEnv, prefix: string, connection: ChainNodeSettings, problems: string[]): EvmKeyFile | undefined {
  const path = env[`${prefix}KEY_FILE`]?.trim() || '';
  if (!path) return undefined;
  if (connection.family !== 'evm') {
    problems.push(`${prefix}KEY_FILE is for the EVM family; ${connection.network} payouts are signed by a node wallet (${prefix}WALLET)`);
    return undefined;
  }
  let text: string;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      problems.push(`${prefix}KEY_FILE must be readable by its owner only (chmod 600)`);
      return undefined;
    }
    text = readFileSync(path, 'utf8');
  } catch {
    problems.push(`${prefix}KEY_FILE cannot be read`);
    return undefined;
  }
  // The messages never repeat the content: it is private keys.
  try {
    const keys = parseEvmKeyFile(text);
    const account = parseAccountKey(connection.network, connection.chain, connection.xpub);
    if (keys.depositKey && !isCounterpartOf(keys.depositKey, account.key)) {
      problems.push(`${prefix}KEY_FILE holds an extended private key that is not the private counterpart of ${prefix}XPUB`);
      return undefined;
    }
    return keys;
  } catch (error) {
    if (!(error instanceof EvmKeyFileError)) throw error;
    problems.push(
      `${prefix}KEY_FILE must hold one private key as 64 hex digits (the hot address) and, for sweeps, the account's xprv on a line of its own: it ${error.message}`,
    );
    return undefined;
  }
}
