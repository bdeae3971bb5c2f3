/**
 * The codes the money functions raise (SQLSTATE class CP; see the header of drizzle/0012_ledger_core.sql and of each
 * function family's migration). The services map each to their typed domain error; a code no service maps is a 500.
 */
export const MONEY_CODES = {
  /** A customer balance would go below zero. Detail: the token. */
  insufficient: 'CPI01',
  /** The Idempotency-Key is taken: replay the stored answer. */
  keyTaken: 'CPK01',
  /** A token is not (or no longer) supported. Detail: the token. */
  tokenGone: 'CPT01',
  /** A price is no longer the one quoted. Detail: the token. */
  priceMoved: 'CPP01',
  /** Two-factor sign-in is on and no fresh code was checked. */
  secondFactor: 'CPS01',
  /** The allowlist is on and the destination is not in the address book. */
  notInAddressBook: 'CPA01',
  /** The address book entry is still on hold. Detail: {"label", "usableAtMs"}. */
  addressOnHold: 'CPA02',
  /** The customer's account is frozen (drizzle/0058_compliance.sql). */
  accountFrozen: 'CPZ01',
  /** The transaction is not found, voided, or not the kind the operation acts on. Detail: why. */
  transactionGone: 'CPX01',
  /** The transaction changed since the caller read it (another status). Detail: the status now. */
  transactionChanged: 'CPX02',
  /** A txHash given for anything but approving a withdrawal. */
  txHashNotAllowed: 'CPX03',
  /** The customer is not found or not active. */
  customerGone: 'CPU01',
  /** A balance is no longer the one a four-eyes approval bound (set balance). Detail: the balance now. */
  balanceChanged: 'CPB01',
  /** A four-eyes approval no longer matches the movement it bound. Detail: why. */
  staleApproval: 'CPB02',
  /** A sweep's recorded fees are not what its row allows (drizzle/0021_sweeps.sql). Detail: why. */
  sweepFees: 'CPW01',
  /** The chain deposit is not waiting for an admin's decision. Detail: 'not found', 'not flagged' or 'resolved: <how>'. */
  depositNotInReview: 'CPD01',
  /** Over a verification limit (drizzle/0056). Detail: {"kind", "period", "level", "limitUsd", "leftUsd"}. */
  overLimit: 'CPL01',
  /** The flagged chain deposit's History row was rejected or deleted by hand (nothing left to take back). Detail: its status. */
  depositHistorySettled: 'CPD02',
  /** The chain deposit is not held (any more) (drizzle/0063_deposit_holds.sql). Detail: 'not found', 'not in the chain', or its state. */
  depositNotHeld: 'CPD03',
  /** The swap quote expired (drizzle/0050_fees.sql). */
  quoteExpired: 'CPQ01',
  /** No such swap quote for this customer. */
  quoteNotFound: 'CPQ02',
  /** The swap quote was already used. */
  quoteUsed: 'CPQ03',
  /** The fee schedule changed since the terms were read: read them again. Detail: the token. */
  feesChanged: 'CPF01',
  /** The amount does not cover the fees. Detail: the token. */
  feesNotCovered: 'CPF02',
  /** The house position of a token would go below its minimum. Detail: the token. */
  housePosition: 'CPH01',
} as const;

export type MoneyCode = (typeof MONEY_CODES)[keyof typeof MONEY_CODES];

/** A refusal a money function raised: its code and detail (undefined: another error). */
export interface MoneyRefusal {
  code: string;
  detail: string;
}

export function moneyRefusalOf(error: unknown): MoneyRefusal | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; message?: unknown };
    if (typeof e.code === 'string' && e.code.startsWith('CP')) return { code: e.code, detail: String(e.message ?? '') };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
