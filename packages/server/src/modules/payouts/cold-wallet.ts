import type { Executor } from '../../db/database';
import type { ApprovedPayment } from '../../chain-core/approved-payments';
import type { SignedPayout } from '../../chain-core/signer-contract';

/** The unsigned transaction handed out for the offline signature, kept on the payout. */
export interface UnsignedColdPayout {
  unsignedTx: string;
  /** The fee it pays (EVM: the most it can, gas × max fee). */
  feeBase: bigint;
}

/**
 * Where a network's cold payouts are paid from: the app holds no cold key; it prepares an unsigned transaction from
 * public data only, and checks what an admin signed offline before it is stored and broadcast.
 */
export interface ColdWallet {
  readonly format: 'psbt' | 'eip1559';
  /** What pays: the watch-only wallet's name (UTXO) or the cold address (EVM), for people. */
  readonly source: string;
  /** The unsigned payment of exactly `approved` (plus change back to the cold side), its inputs or nonce reserved. */
  prepare(approved: ApprovedPayment, executor: Executor): Promise<UnsignedColdPayout>;
  /**
   * The bytes to store and broadcast for a signed upload, when it is `prepared` signed and pays exactly `approved`
   * (change only to our own addresses, no larger fee); a ColdUploadRefusal saying why otherwise.
   */
  accept(signed: string, prepared: UnsignedColdPayout, approved: ApprovedPayment): Promise<SignedPayout>;
  /** The nonce (EVM) and chain id of a prepared transaction, for the admin; null on the UTXO family. */
  describe(prepared: UnsignedColdPayout): { nonce: number | null; chainId: number | null };
  /**
   * Gives back what `prepared` reserved, once it is abandoned (discarded, or its withdrawal failed): UTXO the locks of
   * its inputs; EVM its nonce, when it is the last one reserved for the cold address. A ColdReleaseRefusal, nothing
   * given back, when it may be on the chain already (an input spent, the nonce used) or a later nonce was reserved.
   */
  release(prepared: UnsignedColdPayout, executor: Executor): Promise<void>;
  /** Locks the inputs of prepared transactions again (a node forgets its locks when it restarts). */
  reserveInputs?(unsignedTxs: string[]): Promise<void>;
  /** Confirmations of a sent cold payment, when the hot signer cannot see it (a UTXO payment from the cold wallet). */
  status?(txid: string): Promise<{ confirmations: number; feeBase?: bigint }>;
}

/** A signed upload that does not pay exactly the approved output (or cannot be read or sent): nothing is stored. */
export class ColdUploadRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ColdUploadRefusal';
  }
}

/** The cold side cannot prepare the payment now (it holds too little, the node refuses the address): nothing reserved. */
export class ColdPrepareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ColdPrepareError';
  }
}

/** A prepared transaction that cannot be abandoned (it may have been signed and sent offline): nothing changed. */
export class ColdReleaseRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ColdReleaseRefusal';
  }
}
