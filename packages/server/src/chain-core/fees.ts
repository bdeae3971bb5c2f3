import { baseToDecimal, decimalToBase } from './amounts';
import { ChainRpcError, evmQuantity, type JsonRpcClient } from './json-rpc';

/**
 * The network fee rules of payouts, written once: who pays (the customer, out of the withdrawn amount: the recipient
 * gets the amount minus the fee charged when the payment is first signed), the EVM fee quote (`eth_feeHistory`), the
 * ceiling (`CHAIN_<NETWORK>_MAX_FEE`) and how much a stuck payment's replacement raises its fee; and the EIP-1559 fees
 * of a sweep. The platform absorbs or keeps the difference between the fee charged and the one the chain finally takes
 * (see migration 0019).
 */

/** Blocks `eth_feeHistory` looks back on, and the percentile of the tips paid in each. */
export const FEE_HISTORY_BLOCKS = 10;
export const TIP_PERCENTILE = 50;
/** Gas of a plain transfer of the native coin (what the Send confirm estimate assumes). */
export const NATIVE_TRANSFER_GAS = 21_000n;
/** The tip offered when the node has nothing to learn it from (no recent transactions, no suggestion): 1 gwei. */
export const FALLBACK_TIP_WEI = 1_000_000_000n;

/** The fee would pass the network's ceiling: nothing is signed, the payout waits and is tried again next run. */
export class FeeAboveCeiling extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeeAboveCeiling';
  }
}

/**
 * Who pays a native coin payout's network fee is the customer, out of the amount: an amount the fee takes entirely
 * leaves the recipient nothing, and is refused — at Send against the quote (NetworkFeeService.sendRefusal), and again by
 * the signer against the fee it actually charges. The refusal, said for people; undefined when the amount covers it.
 */
export function feeNotCoveredRefusal(amountBase: bigint, feeBase: bigint, decimals: number, symbol: string): string | undefined {
  if (amountBase > feeBase) return undefined;
  return `The amount does not cover the network fee of ${baseToDecimal(feeBase, decimals)} ${symbol}.`;
}

/** `amountBase` less `feeBase`, never below 0: what the recipient gets. */
export function recipientGetsBase(amountBase: bigint, feeBase: bigint): bigint {
  return feeBase >= amountBase ? 0n : amountBase - feeBase;
}

/** The most one payout may pay as network fee, in the chain's smallest unit. */
export function maxFeeBase(chain: { maxFee: string; nativeDecimals: number }): bigint {
  return decimalToBase(chain.maxFee, chain.nativeDecimals);
}

export interface EvmFeeQuote {
  /** The next block's base fee per gas (wei). */
  baseFeePerGas: bigint;
  /** The tip per gas: the median of the recent blocks' TIP_PERCENTILE tips (wei). */
  priorityFeePerGas: bigint;
}

/**
 * What an EIP-1559 payment pays now, from `eth_feeHistory`: the next block's base fee and the median of the tips paid
 * at TIP_PERCENTILE in the last FEE_HISTORY_BLOCKS blocks that held transactions (FALLBACK_TIP_WEI when none did).
 */
export async function evmFeeQuote(rpc: JsonRpcClient): Promise<EvmFeeQuote> {
  const history = await rpc.call<{ baseFeePerGas?: unknown[]; reward?: unknown[][]; gasUsedRatio?: number[] } | null>('eth_feeHistory', [
    `0x${FEE_HISTORY_BLOCKS.toString(16)}`,
    'latest',
    [TIP_PERCENTILE],
  ]);
  const bases = history?.baseFeePerGas ?? [];
  if (!bases.length) throw new ChainRpcError('The node answered eth_feeHistory without base fees');
  const tips = (history?.reward ?? [])
    .flatMap((reward, i) => ((history?.gasUsedRatio?.[i] ?? 0) > 0 && reward?.[0] !== undefined ? [evmQuantity(reward[0], 'a fee history reward')] : []))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    baseFeePerGas: evmQuantity(bases[bases.length - 1], 'the next base fee'),
    priorityFeePerGas: tips.length ? tips[Math.floor(tips.length / 2)] : FALLBACK_TIP_WEI,
  };
}

/** The fee of an EVM payment of `gas` at the quote: what the customer is charged and the Send confirm estimate. */
export function evmQuotedFee(quote: EvmFeeQuote, gas: bigint): bigint {
  return gas * (quote.baseFeePerGas + quote.priorityFeePerGas);
}

/**
 * The fees an EVM payment offers: the quoted tip and room for the base fee to double before it is mined, within the
 * ceiling; FeeAboveCeiling when the ceiling does not even cover the quote.
 */
export function evmPaymentFees(quote: EvmFeeQuote, gas: bigint, ceilingBase: bigint): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const maxPriorityFeePerGas = quote.priorityFeePerGas;
  const maxFeePerGas = min(2n * quote.baseFeePerGas + maxPriorityFeePerGas, ceilingBase / gas);
  if (maxFeePerGas < quote.baseFeePerGas + maxPriorityFeePerGas) {
    throw new FeeAboveCeiling(`the network fee (${evmQuotedFee(quote, gas)} wei now) is above the ceiling of ${ceilingBase} wei`);
  }
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** At least 10 % (and 1 wei) more: the least raise nodes accept for a same-nonce replacement. */
export function tenPercentMore(value: bigint): bigint {
  return max(value + 1n, (value * 110n + 99n) / 100n);
}

/**
 * The fees of a same-nonce replacement of an EVM payment: tip and fee cap each at least 10 % above the old ones and
 * never below what the quote asks now, within the ceiling (gas × fee cap). Undefined when the ceiling leaves no room
 * for a 10 % raise: the payment stays as it is.
 */
export function evmReplacementFees(
  old: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  quote: EvmFeeQuote,
  gas: bigint,
  ceilingBase: bigint,
): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | undefined {
  const leastTip = tenPercentMore(old.maxPriorityFeePerGas);
  const leastCap = tenPercentMore(old.maxFeePerGas);
  const cap = min(max(leastCap, 2n * quote.baseFeePerGas + max(leastTip, quote.priorityFeePerGas)), ceilingBase / gas);
  const tip = min(max(leastTip, quote.priorityFeePerGas), cap);
  if (cap < leastCap || tip < leastTip) return undefined;
  return { maxFeePerGas: cap, maxPriorityFeePerGas: tip };
}

/**
 * The fee rate of a UTXO replacement (RBF), in sat/vB with three decimals as `psbtbumpfee` takes it: half again the
 * current rate, at least the node's incremental relay fee more (BIP 125), and no less than the node's estimate now —
 * capped so the fee stays within the ceiling. Undefined when the ceiling leaves no room for the least raise.
 */
export function utxoReplacementFeeRate(
  current: { feeBase: bigint; vsize: number },
  ceilingBase: bigint,
  node: { incrementalPerKvB: bigint; estimatePerKvB?: bigint },
): string | undefined {
  const vsize = BigInt(Math.max(1, current.vsize));
  // Base units per 1,000 vbytes is the same number as thousandths of a base unit per vbyte.
  const currentRate = (current.feeBase * 1000n + vsize - 1n) / vsize;
  const leastRate = currentRate + node.incrementalPerKvB;
  const rate = min(max((currentRate * 3n) / 2n, leastRate, node.estimatePerKvB ?? 0n), (ceilingBase * 1000n) / vsize);
  if (rate < leastRate) return undefined;
  return `${rate / 1000n}.${(rate % 1000n).toString().padStart(3, '0')}`;
}

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
    .catch(() => FALLBACK_TIP_WEI);
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

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(...values: bigint[]): bigint {
  return values.reduce((a, b) => (a > b ? a : b));
}
