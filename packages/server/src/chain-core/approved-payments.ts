import { and, eq, isNull } from 'drizzle-orm';
import type { SqlExecutor } from '../db/sql-executor';
import { transactions } from '../db/schema/ledger';
import { supportedTokens } from '../db/schema/market';
import { tokenNetworks } from '../db/schema/networks';
import { AmountError, decimalToBase } from './amounts';
import type { ChainEndpoint } from './chain-endpoint';
import { type ApprovedEvmPayment, contractDecimals, sameAddress } from './erc20';
import type { JsonRpcClient } from './json-rpc';
import { type PayoutRequest, SignerRefusal } from './signer-contract';

/**
 * The approved payment of a withdrawal as the database shows it, re-read by whoever makes a payment: the signer before
 * it signs (src/signer), and the API's cold payouts before they prepare or accept a cold signature. Anything but exactly
 * the approved output is a SignerRefusal saying why.
 */

/** The approved payment of a withdrawal: its address and amount. */
export interface ApprovedPayment {
  address: string;
  /** In the chain's base unit (satoshis, wei). */
  amountBase: bigint;
  /**
   * The platform pays the network fee: the withdrawal's fee is fixed on its network (details.withdrawalFeeMode
   * 'fixed', written by cp_send, migration 0062), so the recipient gets the whole amount. Otherwise the customer pays
   * it out of the amount.
   */
  platformPaysFee: boolean;
}

/**
 * What a payment of an approved withdrawal may pay its recipient: the approved amount less a network fee within the
 * ceiling (the customer pays the fee out of the amount). Refused otherwise.
 */
export function checkRecipientAmount(paid: bigint, approved: { amountBase: bigint }, ceilingBase: bigint): void {
  if (paid > approved.amountBase || paid < approved.amountBase - ceilingBase || paid <= 0n) {
    throw new SignerRefusal(`the payment pays ${paid} to the approved address, not the approved amount (${approved.amountBase}) less a fee within the ceiling`);
  }
}

/**
 * The withdrawal as the database shows it, re-read by the signer itself: approved, not voided, on the signer's network,
 * and the request names exactly its approved address and amount; otherwise a refusal saying why.
 */
export async function readApprovedPayment(
  request: PayoutRequest,
  chain: Pick<ChainEndpoint, 'network' | 'nativeCoins' | 'nativeDecimals'>,
  executor: SqlExecutor,
  sameAddress: (a: string, b: string) => boolean = (a, b) => a === b,
): Promise<ApprovedPayment> {
  const { network, nativeDecimals: decimals } = chain;
  const [row] = await executor
    .select({
      type: transactions.type,
      token: transactions.token,
      status: transactions.status,
      network: transactions.network,
      address: transactions.address,
      coinAmount: transactions.coinAmount,
      voidedAt: transactions.voidedAt,
      details: transactions.details,
    })
    .from(transactions)
    .where(and(eq(transactions.id, request.transactionId)));
  if (!row || row.type !== 'withdrawal') throw new SignerRefusal('no such withdrawal', true);
  if (row.voidedAt) throw new SignerRefusal('the withdrawal was cancelled', true);
  if (row.status !== 'approved') throw new SignerRefusal(`the withdrawal is ${row.status}, not approved`, true);
  if (row.network !== network || request.network !== network) {
    throw new SignerRefusal(`the withdrawal is on ${row.network ?? 'no network'}, this signer pays on ${network}`);
  }
  // This signer pays the network's own coin only (a token on it would need a token transfer).
  if (!chain.nativeCoins.includes(row.token))
    throw new SignerRefusal(`the withdrawal is of ${row.token}, this signer pays ${chain.nativeCoins.join(' or ')} only`);
  let amountBase: bigint;
  try {
    amountBase = decimalToBase(row.coinAmount, decimals);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    throw new SignerRefusal(`the approved amount ${row.coinAmount} is not a whole number of the chain's smallest unit`);
  }
  if (!row.address || !sameAddress(request.address, row.address)) throw new SignerRefusal('the address asked for is not the approved address');
  if (request.amountBase !== amountBase) throw new SignerRefusal(`the amount asked for (${request.amountBase}) is not the approved amount (${amountBase})`);
  if (amountBase <= 0n) throw new SignerRefusal('nothing to pay');
  const platformPaysFee = (row.details as { withdrawalFeeMode?: unknown } | null)?.withdrawalFeeMode === 'fixed';
  return { address: row.address, amountBase, platformPaysFee };
}

/** The withdrawal's token and its ERC-20 contract on `network` (null: the token has no contract there). */
async function withdrawalToken(transactionId: string, network: string, executor: SqlExecutor): Promise<{ token: string; contract: string | null } | undefined> {
  const [row] = await executor
    .select({ token: transactions.token, contract: tokenNetworks.contractAddress })
    .from(transactions)
    .leftJoin(supportedTokens, and(eq(supportedTokens.coinId, transactions.token), isNull(supportedTokens.deletedAt)))
    .leftJoin(tokenNetworks, and(eq(tokenNetworks.tokenId, supportedTokens.id), eq(tokenNetworks.network, network)))
    .where(eq(transactions.id, transactionId));
  return row && { token: row.token, contract: row.contract ?? null };
}

/**
 * The EVM signer's view of a withdrawal (see `readApprovedPayment`): a token with a contract on the network is paid
 * by that contract's `transfer`, its amount counted in the decimals the contract itself answers; the network's own coin
 * as before. Anything else is refused with the reason.
 */
export async function readApprovedEvmPayment(
  request: PayoutRequest,
  chain: Pick<ChainEndpoint, 'network' | 'nativeCoins' | 'nativeDecimals'>,
  executor: SqlExecutor,
  rpc: JsonRpcClient,
): Promise<ApprovedEvmPayment> {
  const withdrawal = await withdrawalToken(request.transactionId, chain.network, executor);
  // The network's own coin, or a withdrawal the native rules refuse (no such withdrawal, a token without a contract).
  if (!withdrawal || withdrawal.contract === null || chain.nativeCoins.includes(withdrawal.token)) {
    return { ...(await readApprovedPayment(request, chain, executor, sameAddress)), contract: null };
  }
  const { contract } = withdrawal;
  const token = { network: chain.network, nativeCoins: [withdrawal.token], nativeDecimals: await contractDecimals(rpc, contract) };
  return { ...(await readApprovedPayment(request, token, executor, sameAddress)), contract };
}
