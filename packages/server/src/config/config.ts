import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type ChainConnection, parseChains, signerSettingsProblems } from './chain-settings';
import { parseExplorerSettings } from './explorer-settings';
import { ConfigError, intSetting, LOG_LEVELS, type LogFormat, type LogLevelName, parseLogFormat } from './settings';
import { parseDuration } from './duration';
import { type FeeSettings, parseFeeSettings } from './fees-config';
import { type IntegrationSettings, parseIntegrationSettings } from './integrations-config';
import { type KycSettings, parseKycSettings } from './kyc-config';

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
  /** The repository's docs folder, served at /docs/* (DOCS_DIR; the image sets /app/docs). */
  docsDir: string;
  /** A published copy of the docs folder (DOCS_URL): /docs/* redirects there instead of serving the markdown. */
  docsUrl?: string;
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
  logFormat: LogFormat;
  /** Bearer token required by `GET /api/metrics`; unset: only loopback addresses may scrape. */
  metricsToken: string | undefined;
  /** Networks connected to a node (`CHAIN_<NETWORK>_*`); the others keep admin deposits only. */
  chains: ChainConnection[];
  /** `CHAIN_<NETWORK>_EXPLORER_URL` as given, by network id: a base URL, a `{tx}` pattern or 'none' (explorer-settings.ts). */
  explorers: Record<string, string>;
  /** Bearer token of the signer process (`SIGNER_TOKEN`), sent with every request to a `CHAIN_<NETWORK>_SIGNER_URL`. */
  signerToken: string | undefined;
  /** API keys and webhooks. */
  integrations: IntegrationSettings;
  /** Verification levels' limits (`KYC_LIMITS`, `KYC_LEVEL_<N>_LIMITS`). */
  kyc: KycSettings;
  /** The fee schedule's defaults and the quotes' lifetime. */
  fees: FeeSettings;
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
 * The API's configuration (the signer process reads its own: src/signer/signer-config.ts). A signer setting in the
 * API's environment is refused first, so the first line of a refused boot names that cause.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = signerSettingsProblems(env);

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
  const logFormat = parseLogFormat(env.LOG_FORMAT, nodeEnv !== 'production' && Boolean(process.stdout.isTTY), problems);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');

  const marketRefreshSeconds = int('MARKET_REFRESH_SECONDS', 60, 0, 86400);
  const chains = parseChains(env, problems, int);
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
    docsDir: env.DOCS_DIR ? resolve(env.DOCS_DIR) : join(SERVER_ROOT, '..', '..', 'docs'),
    docsUrl: url('DOCS_URL', undefined, ['http:', 'https:']),
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
    logFormat,
    metricsToken,
    chains,
    explorers: parseExplorerSettings(env, problems),
    signerToken,
    integrations: parseIntegrationSettings(env, problems, int),
    kyc: parseKycSettings(env, problems),
    fees: parseFeeSettings(env, problems, int),
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
