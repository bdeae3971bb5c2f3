import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { seedCoins } from './market';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './test-app';
import { PRICES, supportTokens } from './wallet';

const SERVER_DIR = join(__dirname, '..', '..');

/**
 * The server as a real OS process: `node -r @swc-node/register src/main.ts`, as `pnpm dev` runs it, or with
 * `TEST_SERVER=dist` the production build `node dist/main.js` (the bundle; run `pnpm build` first).
 */
export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Resolves when a line matching `pattern` is printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Environment every spawned test server gets (overridable). */
export function serverEnv(env: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'test',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    MARKET_REFRESH_SECONDS: '0',
    COINGECKO_BASE_URL: 'http://127.0.0.1:9',
    JWT_SECRET: 'test-secret-for-spawned-servers-0123456789abcdef',
    // Four-eyes off, as in startTestApp: these tests fund customers with one admin (a test turns it on to test it).
    APPROVAL_THRESHOLD_USD: '0',
    // Travel-rule questions only where a test asks for them (TRAVEL_RULE_THRESHOLD_USD in env; travel-rule.test.ts).
    TRAVEL_RULE_THRESHOLD_USD: '100000000',
    ...env,
  };
}

/**
 * Starts the server; `waitUntilListening: false` returns at once (for a start that is expected to fail).
 * The process gets only PATH/HOME from this environment plus `serverEnv(env)`.
 */
export async function spawnServer(env: Record<string, string>, options: { waitUntilListening?: boolean } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const args = process.env.TEST_SERVER === 'dist' ? ['dist/main.js'] : ['-r', '@swc-node/register', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...serverEnv({ PORT: String(port), ...env }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const watcher of watchers) watcher();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(output)) {
          done();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`Timed out waiting for ${pattern} in server output:\n${output.slice(-3000)}`));
      }, timeoutMs);
      const onExit = () => {
        done();
        reject(new Error(`The server exited while waiting for ${pattern}:\n${output.slice(-3000)}`));
      };
      const done = () => {
        clearTimeout(timer);
        watchers.delete(check);
        child.off('exit', onExit);
      };
      watchers.add(check);
      child.once('exit', onExit);
      check();
    });
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    child,
    output: () => output,
    exited,
    waitFor,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitUntilListening !== false) await waitFor(/Listening on /);
  return server;
}

/** Migrates and seeds a PostgreSQL database the way `startWalletApp` does (bitcoin, ethereum, tether supported). */
export async function seedWalletDatabase(databaseUrl: string, dataDir: string): Promise<void> {
  const config = loadConfig(serverEnv({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir }));
  const app = await createApp(config, { logger: ['error'] });
  try {
    const t = { app } as Parameters<typeof seedCoins>[0];
    await seedCoins(t, PRICES);
    await supportTokens(t, Object.keys(PRICES));
  } finally {
    await app.close();
  }
}

/** JSON over fetch with the raw text kept (byte comparisons); a network failure comes back as status 0. */
export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string; body: any; headers: Headers }> {
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, text, body, headers: response.headers };
  } catch {
    return { status: 0, text: '', body: undefined, headers: new Headers() };
  }
}
