import { ChainRpcError, type JsonRpcClient } from './json-rpc';
import type { ChainOutput } from './utxo-node';

/**
 * Output indexes of internal transfers: -2, -3, … in the order of the transaction's call tree (depth first). The
 * transaction's own value is -1 (NATIVE_TRANSFER_INDEX) and ERC-20 Transfer logs keep their log index (0 and up), so
 * (network, txid, index) stays one key per payment, the same on every read of the block.
 */
export const FIRST_INTERNAL_TRANSFER_INDEX = -2;

/** Whether a network's node traces internal transfers: null until its first block was read. */
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

/**
 * Reads a block's internal transfers with `debug_traceBlockByHash` and the callTracer. A node without it (many hosted
 * providers turn the debug namespace off) answers "method not found": the network is then marked "not traced" (the
 * Chain status screen says so; native value a contract forwards to a customer is not seen there) and asked again every
 * ten minutes. Any other failure (node down, timeout, garbage) fails the poll, so a block is never read without them
 * while the node can trace.
 */
export class EvmTracer {
  private tracing: InternalTransfersTracing = null;
  private retryAt = 0;

  constructor(private readonly rpc: JsonRpcClient) {}

  get state(): InternalTransfersTracing {
    return this.tracing;
  }

  /** The internal transfers of the block `hash`, whose transactions are `txids` in block order (empty when not traced). */
  async internalTransfers(hash: string, txids: string[]): Promise<ChainOutput[]> {
    if (!txids.length) return [];
    if (this.tracing === 'not traced' && Date.now() < this.retryAt) return [];
    let traces: unknown;
    try {
      traces = await this.rpc.call<unknown>('debug_traceBlockByHash', [hash, { tracer: 'callTracer' }]);
    } catch (error) {
      if (!cannotTrace(error)) throw error;
      this.tracing = 'not traced';
      this.retryAt = Date.now() + RETRY_UNTRACED_MS;
      return [];
    }
    if (!Array.isArray(traces) || traces.length !== txids.length) {
      throw new ChainRpcError('debug_traceBlockByHash answered something else than one trace per transaction');
    }
    this.tracing = 'traced';
    const outputs: ChainOutput[] = [];
    for (const [i, trace] of (traces as Array<{ txHash?: unknown; result?: CallFrame }>).entries()) {
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

/** The node answered that it has no such method (or refuses the debug namespace), rather than failing to answer. */
function cannotTrace(error: unknown): boolean {
  if (!(error instanceof ChainRpcError) || error.rpcCode === undefined) return false;
  if (error.rpcCode === -32601) return true;
  return /not (supported|available|enabled|allowed|found)|unsupported|does not exist|unknown method|method .*not/i.test(error.message);
}
