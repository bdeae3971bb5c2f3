import { FeeAboveCeiling } from './fees';
import { ChainRpcError } from './json-rpc';

/**
 * The signer's request/response contract: what the API asks the signer process (src/signer/http-api.ts) to sign and what
 * it answers, in the API's terms (bigint base units, typed refusals) and on the wire (JSON, base units as decimal strings),
 * written once for both sides (the API's client: src/modules/signer-client/signer-client.ts).
 */

/** What the payout job asks a signer to sign: one withdrawal's single payment. */
export interface PayoutRequest {
  transactionId: string;
  network: string;
  address: string;
  /** In the chain's base unit (satoshis, wei, token units). */
  amountBase: bigint;
}

/** The signed payment, stored before it is broadcast. */
export interface SignedPayout {
  rawTx: string;
  txid: string;
  /** Base units the transaction pays as fee (EVM: the most it can, gas × max fee). */
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

/**
 * The hot wallet is encrypted and locked (UTXO: the node wallet cannot sign until an operator runs `walletpassphrase`):
 * nothing was signed, the inputs funded for it are unlocked again; the payout waits and is retried, never failed.
 */
export class HotWalletLocked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HotWalletLocked';
  }
}

/** What the signer process says about a network (`GET /networks/:network/address`): where payouts are paid from. */
export interface SignerIdentity {
  network: string;
  family: 'utxo' | 'evm';
  /** EVM: the hot address; UTXO: the node wallet's name (the API reads its balance and confirmations, read-only). */
  source: string;
  /** Whether the signer holds the deposit addresses' keys (the account's xprv): EVM sweeps. */
  sweeps: boolean;
  /**
   * The most one payout may pay as network fee, in the network's own coin (the signer's `CHAIN_<NETWORK>_MAX_FEE`, the
   * one setting of it: the signer refuses above it and says so). Absent from a signer of an older version.
   */
  maxFee?: string;
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

/** Why the signer did not sign, as it answers: 422 for a refusal of its rules, 400/401 for a bad request, 502 a node fault. */
export type SignerRefusalKind = 'refused' | 'short' | 'locked' | 'deferred' | 'fee_above_ceiling' | 'node' | 'unauthorized' | 'bad_request';

/** The answer to a request the signer did not sign: nothing was signed. */
export interface SignerRefusalAnswer {
  refusal: SignerRefusalKind;
  reason: string;
  /** A `refused` withdrawal that is not (or no longer) approved: no payment is due at all. */
  notApproved?: boolean;
  /** A `node` fault the node answered with a JSON-RPC error: its code. */
  rpcCode?: number;
}

/** The kind of refusal a signing error is answered as (anything unknown is a fault of the node or of the signer: `node`). */
export function refusalKindOf(error: unknown): Exclude<SignerRefusalKind, 'unauthorized' | 'bad_request'> {
  if (error instanceof SignerRefusal) return 'refused';
  if (error instanceof HotWalletShort) return 'short';
  if (error instanceof HotWalletLocked) return 'locked';
  if (error instanceof SweepDeferred) return 'deferred';
  if (error instanceof FeeAboveCeiling) return 'fee_above_ceiling';
  return 'node';
}

/** The answer body of a signing error of `kind`. */
export function refusalAnswer(error: unknown, kind: SignerRefusalKind): SignerRefusalAnswer {
  return {
    refusal: kind,
    reason: (error as Error).message,
    ...(error instanceof SignerRefusal && error.notApproved ? { notApproved: true } : {}),
    ...(error instanceof ChainRpcError && error.rpcCode !== undefined ? { rpcCode: error.rpcCode } : {}),
  };
}

/**
 * The error a refusal answer stands for: the same class the signer threw. Undefined for an answer that is no refusal of
 * the signing rules (a bad token or request: the API's own configuration or code).
 */
export function errorOfRefusal(answer: Partial<SignerRefusalAnswer>, reason: string): Error | undefined {
  switch (answer.refusal) {
    case 'refused':
      return new SignerRefusal(reason, answer.notApproved === true);
    case 'short':
      return new HotWalletShort(reason);
    case 'locked':
      return new HotWalletLocked(reason);
    case 'deferred':
      return new SweepDeferred(reason);
    case 'fee_above_ceiling':
      return new FeeAboveCeiling(reason);
    case 'node':
      return new ChainRpcError(reason, answer.rpcCode);
    default:
      return undefined;
  }
}

/** A signed payment on the wire. */
export interface SignedPayoutJson {
  rawTx: string;
  txid: string;
  feeBase: string;
  chargedFeeBase?: string;
}

/** A signed sweep transaction on the wire. */
export interface SignedSweepJson {
  rawTx: string;
  txid: string;
  amountBase: string;
  maxFeeBase: string;
}

export const payoutToJson = (signed: SignedPayout): SignedPayoutJson => ({
  rawTx: signed.rawTx,
  txid: signed.txid,
  feeBase: signed.feeBase.toString(),
  ...(signed.chargedFeeBase !== undefined ? { chargedFeeBase: signed.chargedFeeBase.toString() } : {}),
});

export const payoutFromJson = (signed: SignedPayoutJson): SignedPayout => ({
  rawTx: signed.rawTx,
  txid: signed.txid,
  feeBase: BigInt(signed.feeBase),
  ...(signed.chargedFeeBase !== undefined ? { chargedFeeBase: BigInt(signed.chargedFeeBase) } : {}),
});

export const sweepToJson = (signed: SignedSweepTx): SignedSweepJson => ({
  rawTx: signed.rawTx,
  txid: signed.txid,
  amountBase: signed.amountBase.toString(),
  maxFeeBase: signed.maxFeeBase.toString(),
});

export const sweepFromJson = (signed: SignedSweepJson): SignedSweepTx => ({
  rawTx: signed.rawTx,
  txid: signed.txid,
  amountBase: BigInt(signed.amountBase),
  maxFeeBase: BigInt(signed.maxFeeBase),
});

/** The body of a payout request (sign, replace) on the wire. */
export const payoutRequestJson = (request: PayoutRequest) => ({
  transactionId: request.transactionId,
  address: request.address,
  amountBase: request.amountBase.toString(),
});
