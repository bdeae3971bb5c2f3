import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/database';
import { transactions } from '../db/schema';
import type { ConnectedChain } from '../modules/chain/chain-connections';
import { coinsToBase } from './utxo-node';

/** What the payout job asks a signer to sign: one withdrawal's single payment. */
export interface PayoutRequest {
  transactionId: string;
  network: string;
  address: string;
  /** Satoshis. */
  amountBase: bigint;
}

/** The signed payment, stored before it is broadcast. */
export interface SignedPayout {
  rawTx: string;
  txid: string;
  /** Satoshis the transaction pays as fee. */
  feeBase: bigint;
  /**
   * The network fee taken out of the approved amount (the customer pays it: the recipient gets amount − this). Set
   * when a payment is first signed; a replacement keeps the charge of the payment it replaces.
   */
  chargedFeeBase?: bigint;
}

/** A signed payment of a payout, as stored. */
export interface StoredPayment {
  txid: string;
  rawTx: string;
  feeBase: bigint;
}

/**
 * Signs the payment of an approved withdrawal. The code that decides (API, policy, ledger) never holds a key: a signer
 * is the only place that can make a payment, and it checks the request against the database itself.
 */
export interface PayoutSigner {
  sign(request: PayoutRequest, executor: Executor): Promise<SignedPayout>;
  /** Sends stored bytes; resolves when the node accepted them or already knows them; throws ChainRpcError otherwise. */
  broadcast(rawTx: string): Promise<void>;
  /** Confirmations of a sent payment (0: not in a block of the best chain) and the fee it actually paid, when known. */
  status(txid: string): Promise<{ confirmations: number; feeBase?: bigint }>;
  /**
   * A replacement of a stuck payment that pays a higher fee (RBF: the same inputs; EVM: the same nonce), the same
   * recipient output, within the network's fee ceiling; undefined when the ceiling leaves no room to raise the fee.
   * Checked like `sign`: the withdrawal is still approved and the payment pays its address.
   */
  replace?(request: PayoutRequest, payment: StoredPayment, executor: Executor): Promise<SignedPayout | undefined>;
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
  chain: Pick<ConnectedChain, 'network' | 'nativeCoins' | 'nativeDecimals'>,
  executor: Executor,
  sameAddress: (a: string, b: string) => boolean = (a, b) => a === b,
): Promise<{ address: string; amountBase: bigint }> {
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
    amountBase = coinsToBase(row.coinAmount, decimals);
  } catch {
    throw new SignerRefusal(`the approved amount ${row.coinAmount} is not a whole number of the chain's smallest unit`);
  }
  if (!row.address || !sameAddress(request.address, row.address)) throw new SignerRefusal('the address asked for is not the approved address');
  if (request.amountBase !== amountBase) throw new SignerRefusal(`the amount asked for (${request.amountBase}) is not the approved amount (${amountBase})`);
  if (amountBase <= 0n) throw new SignerRefusal('nothing to pay');
  return { address: row.address, amountBase };
}

/** The signer will not sign this request (the reason says why); nothing was signed. */
export class SignerRefusal extends Error {
  constructor(
    message: string,
    /** The withdrawal is not (or no longer) approved: no payment is due at all. */
    readonly notApproved = false,
  ) {
    super(message);
    this.name = 'SignerRefusal';
  }
}

/** The hot wallet does not hold enough to pay (and the fee): retry once it is topped up. */
export class HotWalletShort extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HotWalletShort';
  }
}

/** Satoshis as a decimal coin amount for the node (exact: no float arithmetic). */
export function baseToCoins(amountBase: bigint, decimals = 8): string {
  const text = amountBase.toString().padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** What the signer process says about a network (`GET /networks/:network/address`): where payouts are paid from. */
export interface SignerIdentity {
  network: string;
  family: 'utxo' | 'evm';
  /** EVM: the hot address; UTXO: the node wallet's name (the API reads its balance and confirmations, read-only). */
  source: string;
  /** Whether the signer holds the deposit addresses' keys (the account's xprv): EVM sweeps. */
  sweeps: boolean;
}

/** A signed transaction of a sweep, stored before it is broadcast. */
export interface SignedSweepTx {
  rawTx: string;
  txid: string;
  amountBase: bigint;
  /** The most it can pay as fee (gas limit × max fee); the fee paid is read from the receipt. */
  maxFeeBase: bigint;
}

/** Nothing worth sweeping now (the balance no longer covers its gas, or fell below the minimum): nothing was signed. */
export class SweepDeferred extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SweepDeferred';
  }
}
