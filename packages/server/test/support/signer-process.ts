import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { startTestApp, type StartTestAppOptions, type TestApp } from './test-app';

const SERVER_DIR = join(__dirname, '..', '..');

/** The bearer token the test signer and the test apps share. */
export const SIGNER_TOKEN = 'test-signer-token-0123456789abcdef0123456789abcdef';

/**
 * The databases a test with a hot signer runs on: PostgreSQL only (when TEST_DATABASE_URL is set). The signer is a
 * process of its own that reads the withdrawals itself, and PGlite lives inside the API process.
 */
export const SIGNER_DATABASE_KINDS: Array<'postgres'> = process.env.TEST_DATABASE_URL ? ['postgres'] : [];

/** Registers the PGlite variant of a hot-signer suite as skipped, with the reason. */
export function skipOnPglite(title: string): void {
  describe(`${title} on pglite`, () => {
    it.skip('needs PostgreSQL: the signer is a separate process and PGlite is only reachable from inside the API process', () => undefined);
  });
}

export interface SignerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  /** Stops the process (SIGKILL: no goodbye, as a crash) and waits for it. */
  kill(): Promise<void>;
  stop(): Promise<void>;
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

/**
 * The real signer process: `node -r @swc-node/register src/signer/main.ts` (or `TEST_SERVER=dist`: the bundle
 * `dist/signer.js`), with only PATH/HOME and `env` in its environment. Resolves once it listens.
 */
export async function spawnSigner(env: Record<string, string>, port?: number): Promise<SignerProcess> {
  const listenPort = port ?? (await freePort());
  const args = process.env.TEST_SERVER === 'dist' ? ['dist/signer.js'] : ['-r', '@swc-node/register', 'src/signer/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', SIGNER_TOKEN, SIGNER_PORT: String(listenPort), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (process.env.TEST_LOGS) process.stderr.write(chunk);
      if (/Signer listening on /.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The signer exited (${code}) before it listened:\n${output.slice(-3000)}`)));
    setTimeout(() => reject(new Error(`The signer did not listen within 60 s:\n${output.slice(-3000)}`)), 60_000).unref();
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url: `http://127.0.0.1:${listenPort}`,
    pid: child.pid!,
    child,
    output: () => output,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}

/** The settings that go to the signer process (with each such network's node settings); the API refuses them. */
const SIGNER_SETTING = /^CHAIN_([A-Z0-9_]+?)(?<!_COLD)_(WALLET|KEY_FILE|MAX_FEE)$/;
const NODE_SETTING = /^CHAIN_([A-Z0-9_]+)_(RPC_URL|XPUB|CHAIN)$/;

export interface SignedTestApp extends TestApp {
  signer: SignerProcess;
  /** The environment it was started with (before the split: a second instance starts from it). */
  env: Record<string, string>;
  /** The signer process's environment (to start it again after a kill). */
  signerEnv: Record<string, string>;
  /** Starts the signer process again on the same port (after `signer.kill()`), its environment changed by `env`. */
  restartSigner(env?: Record<string, string>): Promise<SignerProcess>;
}

/**
 * A test app whose hot keys sit in a real signer process: `env` is written as before the split (CHAIN_<N>_WALLET,
 * _KEY_FILE, _MAX_FEE in it); those go to the signer with the network's node settings and the app's database, and the app gets
 * CHAIN_<N>_SIGNER_URL and SIGNER_TOKEN instead. PostgreSQL only. `options.signer`: share another app's signer.
 */
export async function startTestAppWithSigner(
  env: Record<string, string>,
  options: StartTestAppOptions & { signer?: SignedTestApp } = {},
): Promise<SignedTestApp> {
  const apiEnv: Record<string, string> = {};
  const signerEnv: Record<string, string> = {};
  const signed = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    const match = SIGNER_SETTING.exec(name);
    if (match) {
      signerEnv[name] = value;
      if (match[2] !== 'MAX_FEE') signed.add(match[1]);
    } else apiEnv[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    const match = NODE_SETTING.exec(name);
    if (match && signed.has(match[1])) signerEnv[name] = value;
  }
  const port = options.signer ? Number(new URL(options.signer.signer.url).port) : await freePort();
  for (const network of signed) apiEnv[`CHAIN_${network}_SIGNER_URL`] = `http://127.0.0.1:${port}`;
  const app = await startTestApp('postgres', { ...apiEnv, SIGNER_TOKEN }, options);
  const fullSignerEnv = { ...signerEnv, DATABASE_URL: app.config.databaseUrl!, LOG_LEVEL: env.LOG_LEVEL ?? 'info' };
  let signer: SignerProcess;
  try {
    signer = options.signer ? options.signer.signer : await spawnSigner(fullSignerEnv, port);
  } catch (error) {
    await app.close();
    throw error;
  }
  const result: SignedTestApp = {
    ...app,
    signer,
    env,
    signerEnv: fullSignerEnv,
    restartSigner: async (changes = {}) => {
      await result.signer.stop();
      result.signer = await spawnSigner({ ...fullSignerEnv, ...changes }, port);
      return result.signer;
    },
    close: async () => {
      // A shared signer belongs to the app that started it.
      if (!options.signer) await result.signer.stop();
      await app.close();
    },
  };
  return result;
}
