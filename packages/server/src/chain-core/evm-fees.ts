import type { JsonRpcClient } from './json-rpc';
import { evmQuantity } from './fees';

/** Tip offered when the node does not suggest one (1 gwei). */
const DEFAULT_TIP_WEI = 1_000_000_000n;

/**
 * The EIP-1559 fees of a sweep (read from the node's public RPC, no key needed: the API plans with them, the signer
 * signs with them): the node's tip, and room for the base fee to double before the transaction is mined.
 */
export async function evmSweepFees(rpc: JsonRpcClient): Promise<{ baseFee: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const latest = await rpc.call<{ baseFeePerGas?: unknown } | null>('eth_getBlockByNumber', ['latest', false]);
  const baseFee = evmQuantity(latest?.baseFeePerGas ?? '0x0', 'the base fee');
  const tip = await rpc
    .call<string>('eth_maxPriorityFeePerGas')
    .then((v) => evmQuantity(v, 'eth_maxPriorityFeePerGas'))
    .catch(() => DEFAULT_TIP_WEI);
  return { baseFee, maxFeePerGas: 2n * baseFee + tip, maxPriorityFeePerGas: tip };
}

/** A transaction's receipt: undefined until it is in a block; whether it succeeded and the fee it paid. */
export async function evmReceipt(rpc: JsonRpcClient, txid: string): Promise<{ confirmations: number; succeeded: boolean; feeBase: bigint } | undefined> {
  const [receipt, tipHex] = await rpc.batch<unknown>([{ method: 'eth_getTransactionReceipt', params: [txid] }, { method: 'eth_blockNumber' }]);
  if (!receipt) return undefined;
  const r = receipt as { blockNumber?: unknown; gasUsed?: unknown; effectiveGasPrice?: unknown; status?: unknown };
  const height = evmQuantity(r.blockNumber, 'the receipt block');
  const feeBase = evmQuantity(r.gasUsed, 'gasUsed') * evmQuantity(r.effectiveGasPrice ?? '0x0', 'effectiveGasPrice');
  return { confirmations: Number(evmQuantity(tipHex, 'eth_blockNumber') - height + 1n), succeeded: r.status === '0x1', feeBase };
}
