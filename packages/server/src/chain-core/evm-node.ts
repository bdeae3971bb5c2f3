import { EvmTracer } from './evm-tracer';
import { contractDecimals } from './erc20';
import { ChainRpcError, evmQuantity as quantity, JsonRpcClient, type JsonRpcOptions } from './json-rpc';
import type { ChainBlock, ChainNode, ChainOutput } from './utxo-node';

const HEX32 = /^0x[0-9a-f]{64}$/i;
const ADDRESS = /^0x[0-9a-f]{40}$/i;

/** keccak256("Transfer(address,address,uint256)"): the ERC-20 Transfer event's topic. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** The output index of a native value transfer (ERC-20 Transfer logs use their log index, from 0). */
export const NATIVE_TRANSFER_INDEX = -1;

/**
 * A standard Ethereum JSON-RPC node (geth, Erigon, Nethermind, anvil, a provider): `eth_blockNumber`,
 * `eth_getBlockByNumber`/`eth_getBlockByHash` with transactions, and `eth_getBlockReceipts` so that only successful
 * transactions count. Native value transfers straight to an address are matched, and value a contract sends on (an
 * internal transfer) through the block's call trace where the node can trace (EvmTracer).
 */
export class EvmNode implements ChainNode {
  private readonly rpc: JsonRpcClient;
  /** Internal transfers, from `debug_traceBlockByHash` (its `state` tells whether this node traces them). */
  readonly tracer: EvmTracer;

  constructor(options: JsonRpcOptions) {
    this.rpc = new JsonRpcClient(options);
    // Tracing may execute the block again (geth): minutes for a full block on a busy node, not the usual 15 s.
    this.tracer = new EvmTracer(new JsonRpcClient({ ...options, timeoutMs: Math.max(options.timeoutMs ?? 0, 120_000) }));
  }

  async tipHeight(): Promise<number> {
    return Number(quantity(await this.rpc.call('eth_blockNumber'), 'eth_blockNumber'));
  }

  async blockHash(height: number): Promise<string> {
    const block = await this.rpc.call<{ hash?: unknown } | null>('eth_getBlockByNumber', [`0x${height.toString(16)}`, false]);
    if (!block || typeof block.hash !== 'string' || !HEX32.test(block.hash)) throw new ChainRpcError(`eth_getBlockByNumber answered no block at ${height}`);
    return block.hash.toLowerCase();
  }

  async block(hash: string, contracts: string[] = []): Promise<ChainBlock> {
    const [raw, receipts, logs] = await this.rpc.batch<unknown>([
      { method: 'eth_getBlockByHash', params: [hash, true] },
      { method: 'eth_getBlockReceipts', params: [hash] },
      ...(contracts.length ? [{ method: 'eth_getLogs', params: [{ blockHash: hash, address: contracts, topics: [TRANSFER_TOPIC] }] }] : []),
    ]);
    const block = raw as RawBlock | null;
    if (!block || typeof block.hash !== 'string' || block.hash.toLowerCase() !== hash.toLowerCase() || !Array.isArray(block.transactions)) {
      throw new ChainRpcError('eth_getBlockByHash answered something else than the block asked for');
    }
    if (!Array.isArray(receipts)) throw new ChainRpcError('eth_getBlockReceipts answered something else than receipts');
    const succeeded = new Set(
      (receipts as Array<{ transactionHash?: string; status?: string }>)
        .filter((r) => r && r.status === '0x1' && typeof r.transactionHash === 'string')
        .map((r) => r.transactionHash!.toLowerCase()),
    );
    const outputs: ChainOutput[] = [];
    for (const tx of block.transactions) {
      if (!tx || typeof tx !== 'object' || typeof tx.hash !== 'string') throw new ChainRpcError('eth_getBlockByHash answered a transaction without a hash');
      if (!tx.to || !ADDRESS.test(tx.to) || !succeeded.has(tx.hash.toLowerCase())) continue;
      const value = quantity(tx.value, 'value');
      if (value > 0n) outputs.push({ txid: tx.hash.toLowerCase(), index: NATIVE_TRANSFER_INDEX, matchKey: tx.to.toLowerCase(), amountBase: value });
    }
    if (contracts.length) {
      if (!Array.isArray(logs)) throw new ChainRpcError('eth_getLogs answered something else than logs');
      for (const log of logs as RawLog[]) {
        // A Transfer has from and to as indexed topics and the amount as data; anything else (or a removed log) is skipped.
        if (!log || log.removed || !Array.isArray(log.topics) || log.topics.length !== 3 || String(log.topics[0]).toLowerCase() !== TRANSFER_TOPIC) continue;
        if (String(log.blockHash).toLowerCase() !== hash.toLowerCase() || typeof log.transactionHash !== 'string') continue;
        const contract = String(log.address).toLowerCase();
        if (!contracts.includes(contract) || !/^0x[0-9a-f]{64}$/i.test(log.topics[2]) || !/^0x[0-9a-f]{1,64}$/i.test(log.data)) continue;
        const amountBase = BigInt(log.data);
        if (amountBase === 0n) continue;
        outputs.push({
          txid: log.transactionHash.toLowerCase(),
          index: Number(quantity(log.logIndex, 'logIndex')),
          matchKey: `0x${log.topics[2].slice(-40).toLowerCase()}`,
          amountBase,
          contract,
          ...(/^0x[0-9a-f]{64}$/i.test(log.topics[1]) ? { senders: [`0x${log.topics[1].slice(-40).toLowerCase()}`] } : {}),
        });
      }
    }
    const txids = block.transactions.map((tx) => tx.hash.toLowerCase());
    const height = Number(quantity(block.number, 'number'));
    for (const output of await this.tracer.internalTransfers(hash.toLowerCase(), height, txids)) if (succeeded.has(output.txid)) outputs.push(output);
    // Who sent each payment, for sanctions screening: the transaction's sender, and a token Transfer's own `from`.
    const senderOf = new Map(
      block.transactions.filter((tx) => typeof tx.from === 'string' && ADDRESS.test(tx.from)).map((tx) => [tx.hash.toLowerCase(), tx.from!.toLowerCase()]),
    );
    for (const output of outputs) {
      const sender = senderOf.get(output.txid);
      output.senders = [...new Set([...(output.senders ?? []), ...(sender ? [sender] : [])])];
    }
    const parentHash = String(block.parentHash ?? '').toLowerCase();
    if (!HEX32.test(parentHash)) throw new ChainRpcError('eth_getBlockByHash answered a block without a valid parent hash');
    return {
      height,
      hash: block.hash.toLowerCase(),
      parentHash,
      time: new Date(Number(quantity(block.timestamp, 'timestamp')) * 1000),
      outputs,
    };
  }

  /**
   * Direct native transfers waiting to be mined, from the node's pending block (`eth_getBlockByNumber('pending')`),
   * not in `known` (their hashes are added to it): a deposit is shown as seen before its first block. Only the
   * transaction's own value: token transfers and internal transfers are known once mined (logs and traces need the
   * block). A node without a pending block (null, or an error) shows none.
   */
  async mempoolOutputs(known: Set<string>): Promise<ChainOutput[]> {
    const pending = await this.rpc.call<RawBlock | null>('eth_getBlockByNumber', ['pending', true]).catch(() => null);
    if (!pending || !Array.isArray(pending.transactions)) return [];
    const outputs: ChainOutput[] = [];
    for (const tx of pending.transactions) {
      if (!tx || typeof tx !== 'object' || typeof tx.hash !== 'string' || !HEX32.test(tx.hash)) continue;
      const txid = tx.hash.toLowerCase();
      if (known.has(txid)) continue;
      known.add(txid);
      if (!tx.to || !ADDRESS.test(tx.to) || typeof tx.value !== 'string' || !/^0x[0-9a-f]+$/i.test(tx.value)) continue;
      const value = BigInt(tx.value);
      if (value > 0n) outputs.push({ txid, index: NATIVE_TRANSFER_INDEX, matchKey: tx.to.toLowerCase(), amountBase: value });
    }
    return outputs;
  }

  /**
   * Of transfers seen pending, the hashes the node no longer knows (`eth_getTransactionByHash` null): replaced by
   * another transaction of the same nonce, or dropped. A mined or pending one answers its transaction.
   */
  async goneTransactions(outputs: Array<{ txid: string; index: number }>): Promise<Set<string>> {
    const gone = new Set<string>();
    for (const txid of new Set(outputs.map((output) => output.txid))) {
      if ((await this.rpc.call<unknown>('eth_getTransactionByHash', [txid])) === null) gone.add(txid);
    }
    return gone;
  }

  /** `decimals()` of an ERC-20 contract; refuses a contract that does not answer a uint8. */
  tokenDecimals(contract: string): Promise<number> {
    return contractDecimals(this.rpc, contract);
  }

  get client(): JsonRpcClient {
    return this.rpc;
  }

  /**
   * The native balance (`eth_getBalance`) and the `balanceOf` of each ERC-20 contract of every address, in base units,
   * all read at one block (the latest when asked) so the figures add up; batched, `BALANCE_CALLS_PER_BATCH` calls per
   * request.
   */
  async balances(addresses: string[], contracts: string[] = []): Promise<{ block: number; balances: Map<string, AddressBalances> }> {
    const block = await this.tipHeight();
    const tag = `0x${block.toString(16)}`;
    const calls: Array<{ method: string; params: unknown[]; address: string; contract?: string }> = [];
    for (const address of addresses) {
      if (!ADDRESS.test(address)) throw new ChainRpcError(`Not an EVM address: ${address.slice(0, 60)}`);
      calls.push({ method: 'eth_getBalance', params: [address, tag], address });
      const word = address.slice(2).toLowerCase().padStart(64, '0');
      // balanceOf(address): selector 0x70a08231 and the address as one word.
      for (const contract of contracts) calls.push({ method: 'eth_call', params: [{ to: contract, data: `0x70a08231${word}` }, tag], address, contract });
    }
    const balances = new Map<string, AddressBalances>(addresses.map((address) => [address, { native: 0n, tokens: new Map() }]));
    for (let i = 0; i < calls.length; i += BALANCE_CALLS_PER_BATCH) {
      const chunk = calls.slice(i, i + BALANCE_CALLS_PER_BATCH);
      const answers = await this.rpc.batch<unknown>(chunk.map(({ method, params }) => ({ method, params })));
      for (const [j, call] of chunk.entries()) {
        const held = balances.get(call.address)!;
        if (!call.contract) {
          held.native = quantity(answers[j], 'eth_getBalance');
          continue;
        }
        const answer = answers[j];
        if (typeof answer !== 'string' || !/^0x[0-9a-f]{64}$/i.test(answer))
          throw new ChainRpcError(`balanceOf answered nothing on ${call.contract} (not an ERC-20 contract?)`);
        held.tokens.set(call.contract.toLowerCase(), BigInt(answer));
      }
    }
    return { block, balances };
  }
}

/** What one address holds: the native coin and each ERC-20 asked for (lowercase contract → base units). */
export interface AddressBalances {
  native: bigint;
  tokens: Map<string, bigint>;
}

/** JSON-RPC calls per batch request when reading balances (providers cap batches; 100 is a common limit). */
const BALANCE_CALLS_PER_BATCH = 100;

interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

interface RawBlock {
  hash: string;
  number: string;
  parentHash: string;
  timestamp: string;
  transactions: Array<{ hash: string; from?: string; to: string | null; value: string }>;
}
