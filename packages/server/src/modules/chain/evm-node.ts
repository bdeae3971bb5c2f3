import { ChainRpcError, JsonRpcClient, type JsonRpcOptions } from './json-rpc';
import type { ChainBlock, ChainNode, ChainOutput } from './utxo-node';

const HEX32 = /^0x[0-9a-f]{64}$/i;
const ADDRESS = /^0x[0-9a-f]{40}$/i;

function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-f]+$/i.test(value)) throw new ChainRpcError(`${what} is not a hex quantity`);
  return BigInt(value);
}

/** The output index of a native value transfer (ERC-20 Transfer logs use their log index, from 0). */
export const NATIVE_TRANSFER_INDEX = -1;

/**
 * A standard Ethereum JSON-RPC node (geth, Erigon, Nethermind, anvil, a provider): `eth_blockNumber`,
 * `eth_getBlockByNumber`/`eth_getBlockByHash` with transactions, and `eth_getBlockReceipts` so that only successful
 * transactions count. Native value transfers straight to an address are matched (value sent by a contract's internal
 * call is not seen here).
 */
export class EvmNode implements ChainNode {
  private readonly rpc: JsonRpcClient;

  constructor(options: JsonRpcOptions) {
    this.rpc = new JsonRpcClient(options);
  }

  async tipHeight(): Promise<number> {
    return Number(quantity(await this.rpc.call('eth_blockNumber'), 'eth_blockNumber'));
  }

  async blockHash(height: number): Promise<string> {
    const block = await this.rpc.call<{ hash?: unknown } | null>('eth_getBlockByNumber', [`0x${height.toString(16)}`, false]);
    if (!block || typeof block.hash !== 'string' || !HEX32.test(block.hash)) throw new ChainRpcError(`eth_getBlockByNumber answered no block at ${height}`);
    return block.hash.toLowerCase();
  }

  async block(hash: string): Promise<ChainBlock> {
    const [raw, receipts] = await this.rpc.batch<unknown>([
      { method: 'eth_getBlockByHash', params: [hash, true] },
      { method: 'eth_getBlockReceipts', params: [hash] },
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
    const parentHash = String(block.parentHash ?? '').toLowerCase();
    if (!HEX32.test(parentHash)) throw new ChainRpcError('eth_getBlockByHash answered a block without a valid parent hash');
    return {
      height: Number(quantity(block.number, 'number')),
      hash: block.hash.toLowerCase(),
      parentHash,
      time: new Date(Number(quantity(block.timestamp, 'timestamp')) * 1000),
      outputs,
    };
  }

  get client(): JsonRpcClient {
    return this.rpc;
  }
}

interface RawBlock {
  hash: string;
  number: string;
  parentHash: string;
  timestamp: string;
  transactions: Array<{ hash: string; to: string | null; value: string }>;
}
