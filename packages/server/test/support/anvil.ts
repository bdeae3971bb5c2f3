import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { freePort } from './litecoind';

/** The operator's EVM account key m/44'/60'/0' of the "abandon … about" test mnemonic: the xpub watches, the xprv sweeps. */
export const EVM_ACCOUNT = HDKey.fromMasterSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
).derive("m/44'/60'/0'");
export const EVM_XPUB = EVM_ACCOUNT.publicExtendedKey;

/** The anvil binary inside the npm package `@foundry-rs/anvil-linux-amd64` (a devDependency). */
export const ANVIL = join(dirname(createRequire(__filename).resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil');

/**
 * A real anvil (Foundry's local EVM chain, chain id 31337) on a free loopback port: 10 funded, unlocked dev accounts,
 * a block per transaction (automine), `anvil_mine` and `anvil_reorg`.
 */
export class Anvil {
  private process: ChildProcess | undefined;
  rpc!: JsonRpcClient;
  accounts: string[] = [];

  private constructor(readonly port: number) {}

  static async start(): Promise<Anvil> {
    const anvil = new Anvil(await freePort());
    anvil.process = spawn(ANVIL, ['--port', String(anvil.port), '--host', '127.0.0.1', '--silent'], { stdio: 'ignore' });
    anvil.rpc = new JsonRpcClient({ rpcUrl: anvil.rpcUrl, rpcUrlForLogs: anvil.rpcUrl, timeoutMs: 30_000 });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        anvil.accounts = await anvil.rpc.call<string[]>('eth_accounts');
        return anvil;
      } catch (error) {
        if (Date.now() > deadline || anvil.process.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  get rpcUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Sends `wei` from dev account `from` (mined at once); returns the transaction hash. */
  async sendEth(to: string, wei: bigint, from = this.accounts[0]): Promise<string> {
    return this.mined(await this.rpc.call<string>('eth_sendTransaction', [{ from, to, value: `0x${wei.toString(16)}` }]));
  }

  /** Sends a transaction with `data` (a contract deployment when `to` is absent) and waits until it is mined. */
  async sendData(data: string, to?: string, from = this.accounts[0]): Promise<{ hash: string; contractAddress: string | null }> {
    const hash = await this.mined(await this.rpc.call<string>('eth_sendTransaction', [{ from, ...(to ? { to } : {}), data, gas: '0x2dc6c0' }]));
    const receipt = await this.rpc.call<{ contractAddress: string | null; status: string }>('eth_getTransactionReceipt', [hash]);
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
    return { hash, contractAddress: receipt.contractAddress };
  }

  /** Waits for the transaction's receipt (automine answers the hash before the block is always there). */
  async mined(hash: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      if (await this.rpc.call<unknown>('eth_getTransactionReceipt', [hash])) return hash;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`transaction ${hash} was not mined`);
  }

  async mine(blocks = 1): Promise<void> {
    await this.rpc.call('anvil_mine', [`0x${blocks.toString(16)}`]);
  }

  async height(): Promise<number> {
    return Number(BigInt(await this.rpc.call<string>('eth_blockNumber')));
  }

  /** Replaces the last `depth` blocks with new ones (the transactions in them are not mined again). */
  async reorg(depth: number): Promise<void> {
    await this.rpc.call('anvil_reorg', [depth, []]);
  }
}
