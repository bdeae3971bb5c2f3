import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, resolve } from 'node:path';
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
} from './chain-params';
import { AccountKeyError, parseAccountKey } from './account-key';
import { HOT_COLD_SETTINGS, type HotColdSettings, parseHotCold } from './hot-cold-config';
import { SIGNER_ONLY_SETTINGS } from './signer-settings';
import { intSetting } from './int-setting';
import { parseDuration } from './duration';
import { type IntegrationSettings, parseIntegrationSettings } from './integrations-config';

export { parseDuration } from './duration';

/** Everything the server reads from the environment, validated once at boot. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  /** Absent: embedded PGlite in `dataDir` (or in memory when `dataDir` is ':memory:' for tests). */
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  /** 32-byte AES-256-GCM key for secrets at rest (TOTP secrets). */
  encryptionKey: Buffer;
  /** Administrators must enrol in two-factor sign-in before any admin route answers. */
  adminRequire2fa: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  coingeckoBaseUrl: string;
  coingeckoApiKey: string | undefined;
  marketRefreshSeconds: number;
  /** 0 disables the scheduled refresh (tests drive it by hand). */
  marketRefreshEnabled: boolean;
  priceMaxAgeSeconds: number;
  authRateLimitPerMinute: number;
  /**
   * Money calls (sends, swaps) of one customer running at once on this instance; later ones wait up to the lock timeout,
   * then answer 429. One customer's burst so holds at most this many pool connections.
   */
  moneyCallsPerCustomer: number;
  /**
   * Which proxies are trusted (Express's `trust proxy` values): false (default: X-Forwarded-For is ignored, the client is the socket's address), a hop
   * count, or the addresses/CIDR ranges of the proxies whose X-Forwarded-For is believed.
   */
  trustProxy: false | number | string[];
  /** Hours a newly saved withdrawal address waits before allowlist-mode sends may use it (0: at once). */
  addressHoldHours: number;
  /** Directory of the built client; served at `/` when it exists. */
  clientDir: string;
  /** Directory of the Drizzle migrations. */
  migrationsDir: string;
  /** PostgreSQL session limits (milliseconds; 0 turns one off) and the wait for a pool connection. */
  databaseTimeouts: { statementMs: number; lockMs: number; idleInTransactionMs: number; connectMs: number };
  /** Test hook (NODE_ENV=test only, else 0): money calls with an Idempotency-Key pause this long after the claim, before commit. */
  testPauseAfterIdempotencyClaimMs: number;
  /** Admin money actions worth this many USD or more wait for a second admin; 0 turns four-eyes approval off. */
  approvalThresholdUsd: string;
  /** The rolling window (hours) over which one admin's direct money actions are summed against the threshold. */
  approvalWindowHours: number;
  /** pino level of the logs (`LOG_LEVEL`). */
  logLevel: LogLevelName;
  /** `json`: one JSON object per line (production, files, log shippers); `pretty`: coloured lines for a terminal. */
  logFormat: 'json' | 'pretty';
  /** Bearer token required by `GET /api/metrics`; unset: only loopback addresses may scrape. */
  metricsToken: string | undefined;
  /** Networks connected to a node (`CHAIN_<NETWORK>_*`); the others keep admin deposits only. */
  chains: ChainConnection[];
  /** Bearer token of the signer process (`SIGNER_TOKEN`), sent with every request to a `CHAIN_<NETWORK>_SIGNER_URL`. */
  signerToken: string | undefined;
  /** API keys and webhooks. */
  integrations: IntegrationSettings;
}

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
   * docs/operate/signer.md): it alone holds the hot keys (the node wallet's RPC access, the EVM key file). Unset: withdrawals on this
   * network are settled by hand.
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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Root of the server package: the nearest folder above this code with a package.json. The code runs from `src/config/`
 * (tests, `pnpm dev`), from `dist/config/` (tsc output: scripts) and from the one-file bundle `dist/main.js`, so a
 * fixed number of `..` from `__dirname` is right for only some of them.
 */
export const SERVER_ROOT = packageRoot(__dirname);

/** The nearest folder at or above `from` holding a package.json. */
export function packageRoot(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return resolve(from, '..', '..');
}

/**
 * Loads `.env` from the working directory into `process.env` when the file exists (Node's own parser). Variables
 * already in the environment win: `process.loadEnvFile` never overwrites them. Returns the file it read, if any.
 */
export function loadDotEnv(cwd: string = process.cwd()): string | undefined {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];

  const int = intSetting(env, problems);
  const url = (name: string, fallback: string | undefined, protocols: string[]): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be a ${protocols.join(' or ')} URL (got "${raw}")`);
      return fallback;
    }
  };

  const nodeEnvRaw = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnvRaw)) {
    problems.push(`NODE_ENV must be development, production or test (got "${nodeEnvRaw}")`);
  }
  const nodeEnv = (['development', 'production', 'test'].includes(nodeEnvRaw) ? nodeEnvRaw : 'development') as AppConfig['nodeEnv'];

  const port = int('PORT', 3000, 0, 65535);
  const databaseUrl = url('DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const dataDirRaw = env.DATA_DIR || './data';
  const dataDir = dataDirRaw === ':memory:' ? dataDirRaw : isAbsolute(dataDirRaw) ? dataDirRaw : resolve(process.cwd(), dataDirRaw);

  let jwtTtlSeconds = 86400;
  if (env.JWT_TTL) {
    const parsed = parseDuration(env.JWT_TTL);
    if (parsed === undefined) problems.push(`JWT_TTL must be a duration such as 3600, 15m, 12h or 1d (got "${env.JWT_TTL}")`);
    else jwtTtlSeconds = parsed;
  }

  const jwtSecret = env.JWT_SECRET ?? '';
  if (jwtSecret && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  if (!jwtSecret && nodeEnv === 'production') problems.push('JWT_SECRET is required when NODE_ENV=production');

  let encryptionKey: Buffer | undefined;
  if (env.ENCRYPTION_KEY) {
    encryptionKey = parseEncryptionKey(env.ENCRYPTION_KEY);
    if (!encryptionKey) problems.push('ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64');
  } else if (nodeEnv === 'production') {
    problems.push('ENCRYPTION_KEY is required when NODE_ENV=production');
  }

  let adminRequire2fa = nodeEnv === 'production';
  const require2faRaw = env.ADMIN_REQUIRE_2FA?.trim().toLowerCase();
  if (require2faRaw) {
    if (['true', '1', 'yes'].includes(require2faRaw)) adminRequire2fa = true;
    else if (['false', '0', 'no'].includes(require2faRaw)) adminRequire2fa = false;
    else problems.push(`ADMIN_REQUIRE_2FA must be true or false (got "${env.ADMIN_REQUIRE_2FA}")`);
  }

  const adminEmail = env.ADMIN_EMAIL?.trim() || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) problems.push(`ADMIN_EMAIL is not an email address (got "${adminEmail}")`);
  if (Boolean(adminEmail) !== Boolean(adminPassword)) problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  if (adminPassword && (adminPassword.length < 8 || adminPassword.length > 128)) problems.push('ADMIN_PASSWORD must be 8 to 128 characters');

  const approvalThresholdRaw = (env.APPROVAL_THRESHOLD_USD ?? '').trim() || '10000';
  if (!/^\d{1,15}(\.\d{1,8})?$/.test(approvalThresholdRaw))
    problems.push(`APPROVAL_THRESHOLD_USD must be a USD amount such as 10000 or 0 to turn approvals off (got "${env.APPROVAL_THRESHOLD_USD}")`);
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase() as LogLevelName;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  // JSON unless a person is watching a development terminal.
  const logFormat = (env.LOG_FORMAT || (nodeEnv !== 'production' && process.stdout.isTTY ? 'pretty' : 'json')).toLowerCase();
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push(`LOG_FORMAT must be json or pretty (got "${env.LOG_FORMAT}")`);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');

  const marketRefreshSeconds = int('MARKET_REFRESH_SECONDS', 60, 0, 86400);
  const chains = parseChains(env, problems, int, 'api');
  const signerToken = env.SIGNER_TOKEN || undefined;
  if (chains.some((chain) => chain.signerUrl)) {
    if (!signerToken || signerToken.length < 32)
      problems.push('SIGNER_TOKEN must be set (at least 32 characters, the same as the signer process) with CHAIN_<NETWORK>_SIGNER_URL');
    // PGlite lives inside this process: a separate signer process cannot read the withdrawals it is asked to sign.
    if (!databaseUrl) {
      problems.push(
        'CHAIN_<NETWORK>_SIGNER_URL needs PostgreSQL (DATABASE_URL): the signer process reads the approved withdrawals itself, and PGlite is only reachable from inside this process',
      );
    }
  }
  const config: AppConfig = {
    nodeEnv,
    port,
    databaseUrl,
    dataDir,
    jwtSecret,
    jwtTtlSeconds,
    encryptionKey: encryptionKey ?? Buffer.alloc(0),
    adminRequire2fa,
    adminEmail,
    adminPassword,
    publicUrl: url('PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:'])!,
    smtpUrl: url('SMTP_URL', undefined, ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'Coinpurse <no-reply@coinpurse.local>',
    coingeckoBaseUrl: url('COINGECKO_BASE_URL', 'https://api.coingecko.com/api/v3', ['http:', 'https:'])!,
    coingeckoApiKey: env.COINGECKO_API_KEY || undefined,
    marketRefreshSeconds: marketRefreshSeconds || 60,
    marketRefreshEnabled: marketRefreshSeconds > 0,
    priceMaxAgeSeconds: int('PRICE_MAX_AGE_SECONDS', 600, 1, 86400 * 30),
    authRateLimitPerMinute: int('AUTH_RATE_LIMIT_PER_MINUTE', 10, 1, 1_000_000),
    moneyCallsPerCustomer: int('MONEY_CALLS_PER_CUSTOMER', 2, 1, 1000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    addressHoldHours: int('ADDRESS_HOLD_HOURS', 24, 0, 24 * 365),
    clientDir: env.CLIENT_DIR ? resolve(env.CLIENT_DIR) : join(SERVER_ROOT, '..', 'client', 'dist'),
    migrationsDir: join(SERVER_ROOT, 'drizzle'),
    databaseTimeouts: {
      statementMs: int('DB_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
      lockMs: int('DB_LOCK_TIMEOUT_MS', 2000, 0, 3_600_000),
      idleInTransactionMs: int('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 10_000, 0, 3_600_000),
      connectMs: int('DB_CONNECT_TIMEOUT_MS', 10_000, 0, 3_600_000),
    },
    testPauseAfterIdempotencyClaimMs: nodeEnv === 'test' ? int('TEST_PAUSE_AFTER_IDEMPOTENCY_CLAIM_MS', 0, 0, 600_000) : 0,
    approvalThresholdUsd: /^\d{1,15}(\.\d{1,8})?$/.test(approvalThresholdRaw) ? approvalThresholdRaw : '10000',
    approvalWindowHours: int('APPROVAL_WINDOW_HOURS', 24, 1, 24 * 365),
    logLevel: LOG_LEVELS.includes(logLevel) ? logLevel : 'info',
    logFormat: logFormat === 'pretty' ? 'pretty' : 'json',
    metricsToken,
    chains,
    signerToken,
    integrations: parseIntegrationSettings(env, problems, int),
  };

  if (problems.length) throw new ConfigError(problems);
  if (!config.jwtSecret) config.jwtSecret = developmentJwtSecret(config.dataDir);
  if (!config.encryptionKey.length)
    config.encryptionKey = Buffer.from(
      developmentSecret(config.dataDir, 'encryption-key', () => randomBytes(32).toString('hex')),
      'hex',
    );
  return config;
}

/** `CHAIN_<NETWORK>_…`: the network id upper-cased with `-` as `_` (CHAIN_BITCOIN_CASH_RPC_URL). */
export function chainEnvPrefix(network: ChainNetwork): string {
  return `CHAIN_${network.toUpperCase().replace(/-/g, '_')}_`;
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
  const settings: readonly string[] = role === 'api' ? CHAIN_SETTINGS : [...CHAIN_SETTINGS, ...SIGNER_ONLY_SETTINGS];
  const known = new Set(CHAIN_NETWORKS.flatMap((network) => settings.map((setting) => `${chainEnvPrefix(network)}${setting}`)));
  const names = new RegExp(`^CHAIN_[A-Z0-9_]+_(${[...CHAIN_SETTINGS, ...SIGNER_ONLY_SETTINGS].join('|')})$`);
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
    if (role === 'api') {
      for (const setting of SIGNER_ONLY_SETTINGS) {
        if (env[`${prefix}${setting}`]?.trim()) {
          problems.push(
            `${prefix}${setting} moved to the signer process (node dist/signer.js): set it in the signer's environment, and ${prefix}SIGNER_URL with SIGNER_TOKEN here`,
          );
        }
      }
    }
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
    const decimals = isEvmNetwork(network) ? 18 : 8;
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

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: off (unset, empty, "false", "off", "0"), a hop count ("1": the nearest proxy's X-Forwarded-For entry
 * is the client), or a comma-separated list of proxy addresses / CIDR ranges (also loopback, linklocal, uniquelocal).
 * "true" (believe every hop) is refused: any client could then choose its own address.
 */
export function parseTrustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === 'off' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 32) return hops;
    problems.push(`TRUST_PROXY hop count must be from 0 to 32 (got "${raw}")`);
    return false;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !PROXY_NAMES.has(entry) && !isAddressOrRange(entry));
  if (value === 'true' || bad.length || !entries.length) {
    problems.push(
      `TRUST_PROXY must be off, a hop count, or a comma-separated list of proxy addresses or CIDR ranges (got "${raw}"${bad.length ? `; not understood: ${bad.join(', ')}` : ''})`,
    );
    return false;
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** 64 hex characters or base64 (url-safe or not) of exactly 32 bytes. */
export function parseEncryptionKey(raw: string): Buffer | undefined {
  const text = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  return key?.length === 32 ? key : undefined;
}

/** Outside production a secret is generated once and kept in DATA_DIR so sessions survive restarts. */
function developmentJwtSecret(dataDir: string): string {
  return developmentSecret(dataDir, 'jwt-secret', () => randomBytes(48).toString('base64url'));
}

function developmentSecret(dataDir: string, name: string, generate: () => string): string {
  if (dataDir === ':memory:') return generate();
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
