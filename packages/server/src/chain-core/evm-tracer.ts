import { ChainRpcError, type JsonRpcClient } from './json-rpc';
import type { ChainOutput } from './utxo-node';

/**
 * Output indexes of internal transfers: -2, -3, … in the order of the transaction's call tree (depth first). The
 * transaction's own value is -1 (NATIVE_TRANSFER_INDEX) and ERC-20 Transfer logs keep their log index (0 and up), so
 * (network, txid, index) stays one key per payment, the same on every read of the block.
 */
export const FIRST_INTERNAL_TRANSFER_INDEX = -2;

/** Whether a network's node traces internal transfers: null until its first block with transactions was read. */
export type InternalTransfersTracing = 'traced' | 'not traced' | null;

/** After a node answered that it cannot trace, it is asked again this much later (it may have been reconfigured). */
const RETRY_UNTRACED_MS = 10 * 60_000;

/** One frame of the callTracer's call tree (geth's built-in tracer; anvil, Erigon, Nethermind and Reth answer alike). */
export interface CallFrame {
  type?: string;
  to?: string;
  value?: string;
  error?: string;
  calls?: CallFrame[];
}

const ADDRESS = /^0x[0-9a-f]{40}$/i;
const HEX32 = /^0x[0-9a-f]{64}$/i;

/**
 * The native value a transaction's contracts sent on (its internal transfers), from its callTracer frame: every CALL or
 * SELFDESTRUCT below the top frame that carries value and was not undone — a frame with an error (reverted, out of gas)
 * undoes itself and everything below it. The top frame is the transaction's own value (read from the block itself);
 * DELEGATECALL and STATICCALL carry none, CALLCODE sends to itself, CREATE makes a contract (never a deposit address).
 */
export function internalTransfersOf(txid: string, top: CallFrame): ChainOutput[] {
  const outputs: ChainOutput[] = [];
  if (top.error) return outputs;
  let next = FIRST_INTERNAL_TRANSFER_INDEX;
  const walk = (frames: CallFrame[] | undefined) => {
    for (const frame of frames ?? []) {
      if (!frame || typeof frame !== 'object' || frame.error) continue;
      const type = String(frame.type ?? '').toUpperCase();
      const value = typeof frame.value === 'string' && /^0x[0-9a-f]+$/i.test(frame.value) ? BigInt(frame.value) : 0n;
      if ((type === 'CALL' || type === 'SELFDESTRUCT') && value > 0n && typeof frame.to === 'string' && ADDRESS.test(frame.to)) {
        outputs.push({ txid, index: next--, matchKey: frame.to.toLowerCase(), amountBase: value });
      }
      walk(frame.calls);
    }
  };
  walk(top.calls);
  return outputs;
}

/** One trace of `trace_block` (the Parity/OpenEthereum trace API: Erigon, Nethermind, Reth, anvil). */
export interface FlatTrace {
  type?: string;
  action?: { callType?: string; to?: string; value?: string; refundAddress?: string; balance?: string };
  error?: string;
  traceAddress?: number[];
  transactionHash?: string;
  transactionPosition?: number;
  blockHash?: string;
}

/**
 * The same internal transfers from `trace_block`'s flat list: per transaction, frames in call-tree order (traceAddress),
 * a frame with an error undoing itself and every frame below it. Counted exactly as `internalTransfersOf` counts the
 * call tree, so both APIs give a payment the same index.
 */
export function internalTransfersOfFlat(traces: FlatTrace[]): ChainOutput[] {
  const byTx = new Map<string, FlatTrace[]>();
  for (const trace of traces) {
    if (!trace || typeof trace !== 'object' || typeof trace.transactionHash !== 'string' || !Array.isArray(trace.traceAddress)) continue; // block rewards
    const txid = trace.transactionHash.toLowerCase();
    byTx.set(txid, [...(byTx.get(txid) ?? []), trace]);
  }
  const outputs: ChainOutput[] = [];
  for (const [txid, list] of byTx) {
    const ordered = [...list].sort((a, b) => compareAddresses(a.traceAddress!, b.traceAddress!));
    const undone: number[][] = [];
    let next = FIRST_INTERNAL_TRANSFER_INDEX;
    for (const trace of ordered) {
      const at = trace.traceAddress!;
      if (trace.error) undone.push(at);
      if (undone.some((failed) => failed.length <= at.length && failed.every((step, i) => at[i] === step)) || !at.length) continue;
      const type = String(trace.type ?? '').toLowerCase();
      const call = type === 'call' && String(trace.action?.callType ?? 'call').toLowerCase() === 'call';
      const to = call ? trace.action?.to : type === 'suicide' ? trace.action?.refundAddress : undefined;
      const raw = call ? trace.action?.value : type === 'suicide' ? trace.action?.balance : undefined;
      const value = typeof raw === 'string' && /^0x[0-9a-f]+$/i.test(raw) ? BigInt(raw) : 0n;
      if (value > 0n && typeof to === 'string' && ADDRESS.test(to)) outputs.push({ txid, index: next--, matchKey: to.toLowerCase(), amountBase: value });
    }
  }
  return outputs;
}

/** Call-tree order of two trace addresses (a parent before its children, siblings in call order). */
function compareAddresses(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

type TraceMethod = 'trace_block' | 'debug_traceBlockByHash';

/**
 * Reads a block's internal transfers from the node's traces: `trace_block` where the node has it (Erigon, Nethermind,
 * Reth, anvil: traces kept, fast), else `debug_traceBlockByHash` with the built-in callTracer (geth: the block is
 * executed again). A node with neither (many hosted providers turn both off) answers "method not found": the network
 * is then marked "not traced" (the Chain status screen says so; native value a contract forwards to a customer is not
 * seen there) and asked again every ten minutes. Any other failure (node down, timeout, garbage, a trace of another
 * block) fails the poll, so a block is never read without them while the node can trace.
 */
export class EvmTracer {
  private tracing: InternalTransfersTracing = null;
  private method: TraceMethod | undefined;
  private retryAt = 0;

  /** `rpc`: a client with a timeout long enough for a block to be executed again (geth). */
  constructor(private readonly rpc: JsonRpcClient) {}

  get state(): InternalTransfersTracing {
    return this.tracing;
  }

  /** The internal transfers of the block (`hash`, `height`), whose transactions are `txids` in block order. */
  async internalTransfers(hash: string, height: number, txids: string[]): Promise<ChainOutput[]> {
    if (!txids.length) return [];
    if (this.tracing === 'not traced' && Date.now() < this.retryAt) return [];
    const methods: TraceMethod[] = this.method ? [this.method] : ['trace_block', 'debug_traceBlockByHash'];
    for (const method of methods) {
      let answer: unknown;
      try {
        answer =
          method === 'trace_block'
            ? await this.rpc.call<unknown>('trace_block', [`0x${height.toString(16)}`])
            : await this.rpc.call<unknown>('debug_traceBlockByHash', [hash, { tracer: 'callTracer' }]);
      } catch (error) {
        if (!cannotTrace(error)) throw error;
        continue;
      }
      const outputs = method === 'trace_block' ? this.fromFlat(answer, hash) : this.fromCallTrees(answer, txids);
      this.method = method;
      this.tracing = 'traced';
      return outputs;
    }
    // Neither answered (or the one that did before no longer does): not traced, asked again later.
    this.method = undefined;
    this.tracing = 'not traced';
    this.retryAt = Date.now() + RETRY_UNTRACED_MS;
    return [];
  }

  private fromFlat(answer: unknown, hash: string): ChainOutput[] {
    if (!Array.isArray(answer)) throw new ChainRpcError('trace_block answered something else than a list of traces');
    // Read by height: the traces must be of the block read by hash (a reorganisation in between fails the poll).
    if ((answer as FlatTrace[]).some((trace) => trace && typeof trace.blockHash === 'string' && trace.blockHash.toLowerCase() !== hash)) {
      throw new ChainRpcError('trace_block answered the traces of another block at that height');
    }
    return internalTransfersOfFlat(answer as FlatTrace[]);
  }

  private fromCallTrees(answer: unknown, txids: string[]): ChainOutput[] {
    if (!Array.isArray(answer) || answer.length !== txids.length) {
      throw new ChainRpcError('debug_traceBlockByHash answered something else than one trace per transaction');
    }
    const outputs: ChainOutput[] = [];
    for (const [i, trace] of (answer as Array<{ txHash?: unknown; result?: CallFrame }>).entries()) {
      if (!trace || typeof trace !== 'object' || !trace.result || typeof trace.result !== 'object') {
        throw new ChainRpcError('debug_traceBlockByHash answered a trace without a call frame');
      }
      // Nodes name each trace's transaction (geth 1.11+, anvil); older ones answer them in block order only.
      const txid = typeof trace.txHash === 'string' && HEX32.test(trace.txHash) ? trace.txHash.toLowerCase() : txids[i];
      if (txid !== txids[i]) throw new ChainRpcError('debug_traceBlockByHash answered the traces in another order than the block');
      outputs.push(...internalTransfersOf(txid, trace.result));
    }
    return outputs;
  }
}

/** The node answered that it has no such method (or refuses the namespace), rather than failing to answer. */
function cannotTrace(error: unknown): boolean {
  if (!(error instanceof ChainRpcError) || error.rpcCode === undefined) return false;
  if (error.rpcCode === -32601) return true;
  return /not (supported|available|enabled|allowed|found)|unsupported|does not exist|unknown method|method .*not/i.test(error.message);
}
