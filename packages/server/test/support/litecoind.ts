import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';

/** Debian's litecoind (package `litecoind`; CI installs it). */
export const LITECOIND = process.env.LITECOIND ?? '/usr/bin/litecoind';
/** Outside CI a machine without litecoind skips the chain tests; in CI (which installs it) they always run. */
export const litecoindInstalled = existsSync(LITECOIND) || process.env.CI === 'true';

/** A free loopback TCP port (taken and released at once). */
export async function freePort(): Promise<number> {
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
 * A real `litecoind -regtest` on free loopback ports with a temporary data directory, a funded wallet ("miner", 101
 * blocks mined so its coins are spendable) and helpers to pay, mine and reorganise. `stop` then `start` restarts the
 * same node (same data, same ports); `close` stops it and removes its data.
 */
export class RegtestLitecoind {
  readonly datadir = mkdtempSync(join(tmpdir(), 'coinpurse-ltc-'));
  readonly rpcUser = 'coinpurse';
  readonly rpcPassword = `pw-${Math.random().toString(36).slice(2)}`;
  private process: ChildProcess | undefined;
  private extraArgs: string[] = [];
  node!: JsonRpcClient;
  wallet!: JsonRpcClient;
  minerAddress = '';

  private constructor(
    readonly rpcPort: number,
    readonly p2pPort: number,
  ) {}

  /** `args`: more node options (e.g. `-mempoolreplacement=1`: Litecoin Core relays no replacement by default). */
  static async start(options: { args?: string[] } = {}): Promise<RegtestLitecoind> {
    const node = new RegtestLitecoind(await freePort(), await freePort());
    node.extraArgs = options.args ?? [];
    await node.start();
    await node.node.call('createwallet', ['miner']);
    node.minerAddress = await node.wallet.call<string>('getnewaddress', ['', 'bech32']);
    await node.mine(101);
    return node;
  }

  /** The URL the app is given: credentials inside, as an operator would write it. */
  get rpcUrl(): string {
    return `http://${this.rpcUser}:${this.rpcPassword}@127.0.0.1:${this.rpcPort}`;
  }

  async start(): Promise<void> {
    this.process = spawn(
      LITECOIND,
      [
        '-regtest',
        `-datadir=${this.datadir}`,
        `-rpcuser=${this.rpcUser}`,
        `-rpcpassword=${this.rpcPassword}`,
        `-rpcport=${this.rpcPort}`,
        `-port=${this.p2pPort}`,
        '-rpcbind=127.0.0.1',
        '-rpcallowip=127.0.0.1',
        '-listen=0',
        '-dnsseed=0',
        '-discover=0',
        '-fallbackfee=0.0001',
        // MWEB never activates: once it does (a few hundred regtest blocks in), Litecoin Core 0.21 no longer mines the
        // wallet's plain transactions with generatetoaddress (bad-txns-vin-empty); deposits do not need it.
        '-vbparams=mweb:-2:0',
        '-server=1',
        '-printtoconsole=0',
        ...this.extraArgs,
      ],
      { stdio: 'ignore' },
    );
    const options = { rpcUrl: this.rpcUrl, rpcUrlForLogs: `http://127.0.0.1:${this.rpcPort}`, timeoutMs: 60_000 };
    this.node = new JsonRpcClient(options);
    this.wallet = new JsonRpcClient({ ...options, rpcUrl: `${this.rpcUrl}/wallet/miner` });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await this.node.call('getblockcount');
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        if (this.process.exitCode !== null) throw new Error(`litecoind exited with ${this.process.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (this.minerAddress) await this.node.call('loadwallet', ['miner']).catch(() => undefined);
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await this.node.call('stop').catch(() => child.kill('SIGTERM'));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    this.process = undefined;
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.datadir, { recursive: true, force: true });
  }

  /** Mines `count` blocks (to the miner's address) and returns their hashes. */
  mine(count = 1, address = this.minerAddress): Promise<string[]> {
    return this.node.call<string[]>('generatetoaddress', [count, address]);
  }

  /** A fresh address of the miner's wallet (mining to it after `invalidate` makes a block different from the invalid one). */
  newAddress(): Promise<string> {
    return this.wallet.call<string>('getnewaddress', ['', 'bech32']);
  }

  /** Pays `amount` LTC (a decimal string) to `address` from the miner's wallet; returns the txid. */
  send(address: string, amount: string): Promise<string> {
    return this.wallet.call<string>('sendtoaddress', [address, amount]);
  }

  height(): Promise<number> {
    return this.node.call<number>('getblockcount');
  }

  blockHash(height: number): Promise<string> {
    return this.node.call<string>('getblockhash', [height]);
  }

  /** Marks a block invalid: the node reorganises to the best chain without it (its transactions return to the mempool). */
  invalidate(hash: string): Promise<void> {
    return this.node.call('invalidateblock', [hash]);
  }

  /** The output index of `txid` paying `address`. */
  async outputTo(txid: string, address: string): Promise<number> {
    const tx = await this.wallet.call<{ decoded?: unknown; hex: string }>('gettransaction', [txid]);
    const decoded = await this.node.call<{ vout: Array<{ n: number; scriptPubKey: { address?: string; addresses?: string[] } }> }>('decoderawtransaction', [
      tx.hex,
    ]);
    return decoded.vout.find((out) => out.scriptPubKey.address === address || out.scriptPubKey.addresses?.includes(address))!.n;
  }
}
