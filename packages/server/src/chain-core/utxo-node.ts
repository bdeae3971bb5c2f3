import { ChainRpcError, JsonRpcClient, type JsonRpcOptions, nodeAmountToBase } from './json-rpc';

/** One output of a block's transaction, as matched against deposit addresses. */
export interface ChainOutput {
  txid: string;
  /** The output index (UTXO) or log index (EVM). */
  index: number;
  /** UTXO: the scriptPubKey hex; EVM: the lowercase recipient address. */
  matchKey: string;
  /** The exact amount in base units (satoshis, wei, token units). */
  amountBase: bigint;
  /** EVM ERC-20: the token contract (lowercase); absent for the native coin. */
  contract?: string;
  /** EVM: the addresses that sent it (the transaction's sender, a Transfer's `from`; lowercase), for sanctions screening. */
  senders?: string[];
}

/** The addresses a transaction spent from, as far as the node can tell (`complete`: every input was read). */
export interface TransactionSenders {
  addresses: string[];
  complete: boolean;
}

/** A block as the watcher reads it: enough to check its parent and match its outputs. */
export interface ChainBlock {
  height: number;
  hash: string;
  parentHash: string;
  time: Date;
  outputs: ChainOutput[];
}

/** What a watcher needs of a node, whichever family: the tip, a block's hash by height, and a block. */
export interface ChainNode {
  tipHeight(): Promise<number>;
  blockHash(height: number): Promise<string>;
  /** The block's payments; on EVM networks also the ERC-20 Transfer logs of `contracts` (lowercase addresses). */
  block(hash: string, contracts?: string[]): Promise<ChainBlock>;
  /** Payments waiting to be mined that are not in `known` (added to it), where the node shows them. */
  mempoolOutputs?(known: Set<string>): Promise<ChainOutput[]>;
  /**
   * Of payments seen waiting to be mined, the txids the node no longer has at all — neither waiting nor mined: replaced
   * (RBF), conflicted by a double spend, or evicted. Never names one mined or still waiting; an error throws.
   */
  goneTransactions?(outputs: Array<{ txid: string; index: number }>): Promise<Set<string>>;
  /** UTXO: the addresses a mined transaction spent from (its inputs' previous outputs), for sanctions screening. */
  sendersOf?(txid: string, blockHash: string): Promise<TransactionSenders>;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Decimals of the UTXO family's base unit (satoshis, litoshis, …): amounts the nodes answer are read with them. */
const UTXO_DECIMALS = 8;

/**
 * A Bitcoin Core–compatible node (bitcoind, litecoind, dogecoind, BCHN): `getblockcount`, `getblockhash`,
 * `getblock <hash> 2` (every transaction decoded). Answers that do not look like a block are refused (garbage never
 * moves the cursor).
 */
export class UtxoNode implements ChainNode {
  private readonly rpc: JsonRpcClient;

  constructor(private readonly options: JsonRpcOptions) {
    this.rpc = new JsonRpcClient(options);
  }

  async tipHeight(): Promise<number> {
    const height = await this.rpc.call<unknown>('getblockcount');
    if (typeof height !== 'number' || !Number.isSafeInteger(height) || height < 0)
      throw new ChainRpcError('getblockcount answered something else than a height');
    return height;
  }

  async blockHash(height: number): Promise<string> {
    const hash = await this.rpc.call<unknown>('getblockhash', [height]);
    if (typeof hash !== 'string' || !HEX64.test(hash)) throw new ChainRpcError('getblockhash answered something else than a block hash');
    return hash;
  }

  async block(hash: string): Promise<ChainBlock> {
    const raw = await this.rpc.call<RawBlock>('getblock', [hash, 2]);
    if (!raw || typeof raw !== 'object' || raw.hash !== hash || !Number.isSafeInteger(raw.height) || !Array.isArray(raw.tx)) {
      throw new ChainRpcError('getblock answered something else than the block asked for');
    }
    // The genesis block has no parent: all zeros.
    const parentHash = raw.previousblockhash ?? '0'.repeat(64);
    if (!HEX64.test(parentHash)) throw new ChainRpcError('getblock answered a block without a valid parent hash');
    const outputs = raw.tx.flatMap((tx) => outputsOf(tx, 'getblock'));
    return { height: raw.height, hash, parentHash, time: new Date((raw.time ?? 0) * 1000), outputs };
  }

  /**
   * The outputs of mempool transactions not in `known` (their txids are added to it): a deposit is shown as seen before
   * its first block. `getrawtransaction` finds mempool transactions without `-txindex`; at most `limit` per call.
   */
  async mempoolOutputs(known: Set<string>, limit = 2000): Promise<ChainOutput[]> {
    const txids = await this.rpc.call<unknown>('getrawmempool');
    if (!Array.isArray(txids)) throw new ChainRpcError('getrawmempool answered something else than a list');
    const fresh = txids.filter((txid): txid is string => typeof txid === 'string' && HEX64.test(txid) && !known.has(txid)).slice(0, limit);
    const outputs: ChainOutput[] = [];
    for (let i = 0; i < fresh.length; i += 200) {
      const chunk = fresh.slice(i, i + 200);
      // A transaction mined or replaced meanwhile answers an error: skipped (its block will tell).
      const answers = await Promise.all(chunk.map((txid) => this.rpc.call<RawBlock['tx'][number]>('getrawtransaction', [txid, true]).catch(() => undefined)));
      for (const [j, tx] of answers.entries()) {
        known.add(chunk[j]);
        if (tx) outputs.push(...outputsOf(tx, 'getrawtransaction'));
      }
    }
    return outputs;
  }

  /**
   * Gone: not in `getrawmempool`, and its output not in the node's view of unspent outputs with the mempool
   * (`gettxout <txid> <n> true`): a payment mined since is there (a deposit's output is not spent before its credit), one
   * waiting is in the mempool. What a wallet would report as negative confirmations / `walletconflicts` /
   * `replaced_by_txid`, read without a wallet (deposit addresses are not in the node's wallet).
   */
  async goneTransactions(outputs: Array<{ txid: string; index: number }>): Promise<Set<string>> {
    const gone = new Set<string>();
    if (!outputs.length) return gone;
    const txids = await this.rpc.call<unknown>('getrawmempool');
    if (!Array.isArray(txids)) throw new ChainRpcError('getrawmempool answered something else than a list');
    const waiting = new Set(txids);
    for (const output of outputs) {
      if (waiting.has(output.txid) || gone.has(output.txid)) continue;
      const out = await this.rpc.call<unknown>('gettxout', [output.txid, output.index, true]);
      if (out === null) gone.add(output.txid);
      else if (typeof out !== 'object') throw new ChainRpcError('gettxout answered something else than an output');
    }
    return gone;
  }

  /**
   * The addresses `txid` (mined in `blockHash`) spent from: the transaction read with its block hash (no `-txindex`
   * needed), then each input's previous transaction (`getrawtransaction`, which finds a mined one only with `-txindex=1`
   * or in the mempool). An input the node cannot tell about (no index, a script without an address) is left out and
   * the answer is not `complete`.
   */
  async sendersOf(txid: string, blockHash: string): Promise<TransactionSenders> {
    const tx = await this.rpc.call<RawInputs | null>('getrawtransaction', [txid, true, blockHash]);
    if (!tx || !Array.isArray(tx.vin)) throw new ChainRpcError('getrawtransaction answered a transaction without inputs');
    const addresses = new Set<string>();
    let complete = true;
    const previous = new Map<string, Promise<RawBlock['tx'][number] | undefined>>();
    for (const input of tx.vin) {
      if (input.coinbase !== undefined) continue;
      if (typeof input.txid !== 'string' || !HEX64.test(input.txid) || typeof input.vout !== 'number') {
        complete = false;
        continue;
      }
      if (!previous.has(input.txid))
        previous.set(
          input.txid,
          this.rpc.call<RawBlock['tx'][number]>('getrawtransaction', [input.txid, true]).catch(() => undefined),
        );
      const spent = (await previous.get(input.txid))?.vout?.find((out) => out?.n === input.vout);
      const found = spent?.scriptPubKey?.address ?? spent?.scriptPubKey?.addresses;
      const list = typeof found === 'string' ? [found] : Array.isArray(found) ? found.filter((a): a is string => typeof a === 'string') : [];
      if (!list.length) complete = false;
      for (const address of list) addresses.add(address);
    }
    return { addresses: [...addresses], complete };
  }

  /** The raw client, for tests and tools (regtest mining, sending). */
  get client(): JsonRpcClient {
    return this.rpc;
  }

  /** A wallet of the node (`/wallet/<name>`), read-only uses: balances, unspent outputs, whether an address is its own. */
  wallet(name: string): UtxoWallet {
    const url = new URL(this.options.rpcUrl);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/wallet/${encodeURIComponent(name)}`;
    return new UtxoWallet(new JsonRpcClient({ rpcUrl: url.toString(), rpcUrlForLogs: `${this.options.rpcUrlForLogs} (wallet ${name})` }));
  }

  /**
   * The coins on `addresses` in the node's UTXO set (`scantxoutset` with `addr(…)` descriptors), each with its outpoint
   * ("txid:vout") and amount in satoshis: confirmed outputs only, whatever wallet holds the keys (watch-only). One scan
   * reads the whole UTXO set — minutes on mainnet — and a node runs one at a time (another answers "Scan already in
   * progress").
   */
  async addressCoins(addresses: string[]): Promise<UtxoCoin[]> {
    if (!addresses.length) return [];
    // The script of each address tells the scan's outputs apart (its descriptors may spell an address differently).
    const byScript = new Map<string, string>();
    for (let i = 0; i < addresses.length; i += 500) {
      const chunk = addresses.slice(i, i + 500);
      const infos = await this.rpc.batch<{ isvalid?: boolean; scriptPubKey?: string }>(
        chunk.map((address) => ({ method: 'validateaddress', params: [address] })),
      );
      for (const [j, info] of infos.entries()) {
        if (!info?.isvalid || typeof info.scriptPubKey !== 'string') throw new ChainRpcError(`The node does not accept the address ${chunk[j]}`);
        byScript.set(info.scriptPubKey.toLowerCase(), chunk[j]);
      }
    }
    const scanner = new JsonRpcClient({ ...this.options, timeoutMs: SCAN_TIMEOUT_MS });
    const scan = await scanner.call<{ success?: boolean; unspents?: Array<{ txid?: string; vout?: number; scriptPubKey?: string; amount?: number }> }>(
      'scantxoutset',
      ['start', addresses.map((address) => `addr(${address})`)],
    );
    if (!scan || scan.success === false || !Array.isArray(scan.unspents)) throw new ChainRpcError('scantxoutset answered something else than a finished scan');
    const coins: UtxoCoin[] = [];
    for (const unspent of scan.unspents) {
      const address = byScript.get(String(unspent?.scriptPubKey ?? '').toLowerCase());
      if (address) coins.push({ address, outpoint: `${unspent.txid}:${unspent.vout}`, amountBase: nodeAmountToBase(unspent.amount, UTXO_DECIMALS) });
    }
    return coins;
  }
}

/** A coin (unspent output) on an address, read from the UTXO set. */
export interface UtxoCoin {
  address: string;
  /** "txid:vout". */
  outpoint: string;
  amountBase: bigint;
}

/** A coin of a wallet: its outpoint, its output script (hex, as deposit addresses are matched) and amount. */
export interface WalletCoin {
  outpoint: string;
  matchKey: string;
  amountBase: bigint;
}

/** How long a UTXO-set scan may take before the node counts as not answering (mainnet scans take minutes). */
const SCAN_TIMEOUT_MS = 15 * 60_000;

/** One wallet of a UTXO node, read-only. */
export class UtxoWallet {
  constructor(readonly client: JsonRpcClient) {}

  /** The wallet's balance (`getbalance`: confirmed, and its own unconfirmed change), in satoshis. */
  async balance(): Promise<bigint> {
    return nodeAmountToBase(await this.client.call<unknown>('getbalance'), UTXO_DECIMALS);
  }

  /**
   * The confirmed coins the wallet spends, the ones it has locked too (a payment funded and not sent yet: in its
   * balance, not in `listunspent`): what `balance` counts of them, by outpoint. Watch-only outputs (not in the
   * balance) are left out.
   */
  async coins(): Promise<WalletCoin[]> {
    const rows = await this.client.call<Array<{ txid?: string; vout?: number; scriptPubKey?: string; amount?: number; spendable?: boolean }>>(
      'listunspent',
      [1],
    );
    const locked = await this.client.call<Array<{ txid?: string; vout?: number }>>('listlockunspent');
    if (!Array.isArray(rows) || !Array.isArray(locked)) throw new ChainRpcError('listunspent or listlockunspent answered something else than a list');
    const coins = rows
      .filter((row) => row.spendable !== false)
      .map((row) => ({
        outpoint: `${row.txid}:${row.vout}`,
        matchKey: String(row.scriptPubKey ?? '').toLowerCase(),
        amountBase: nodeAmountToBase(row.amount, UTXO_DECIMALS),
      }));
    for (const lock of locked) {
      // Confirmed and unspent only (a lock may outlive its coin); the node's view, without the mempool.
      const out = await this.client.call<{ value?: number; confirmations?: number; scriptPubKey?: { hex?: string } } | null>('gettxout', [
        lock.txid,
        lock.vout,
        false,
      ]);
      if (!out || !out.confirmations) continue;
      coins.push({
        outpoint: `${lock.txid}:${lock.vout}`,
        matchKey: String(out.scriptPubKey?.hex ?? '').toLowerCase(),
        amountBase: nodeAmountToBase(out.value, UTXO_DECIMALS),
      });
    }
    return coins;
  }

  /** Whether the wallet holds the key of an address (`getaddressinfo` … `ismine`). */
  async owns(address: string): Promise<boolean> {
    const info = await this.client.call<{ ismine?: boolean }>('getaddressinfo', [address]);
    return info?.ismine === true;
  }
}

/** The paying outputs of a decoded transaction (matched on their scriptPubKey hex). */
function outputsOf(tx: RawBlock['tx'][number], method: string): ChainOutput[] {
  if (!tx || typeof tx.txid !== 'string' || !Array.isArray(tx.vout)) throw new ChainRpcError(`${method} answered a transaction without outputs`);
  const outputs: ChainOutput[] = [];
  for (const out of tx.vout) {
    const script = out?.scriptPubKey?.hex;
    if (typeof script !== 'string' || typeof out.n !== 'number') continue;
    const amountBase = nodeAmountToBase(out.value, UTXO_DECIMALS);
    if (amountBase > 0n) outputs.push({ txid: tx.txid, index: out.n, matchKey: script.toLowerCase(), amountBase });
  }
  return outputs;
}

interface RawBlock {
  hash: string;
  height: number;
  time?: number;
  previousblockhash?: string;
  tx: Array<{ txid: string; vout: Array<{ value: number; n: number; scriptPubKey?: { hex?: string; address?: string; addresses?: string[] } }> }>;
}

/** A decoded transaction's inputs (a coinbase input has `coinbase` instead of an outpoint). */
interface RawInputs {
  vin: Array<{ txid?: string; vout?: number; coinbase?: string }>;
}
