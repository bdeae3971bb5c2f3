/** What a customer and an admin read about a held chain deposit (drizzle/0063_deposit_holds.sql). */
export type DepositHold = 'limit' | 'sanctions';

/**
 * The customer's words on the History row and the wallet. A sanctions hold is not named to the customer (tipping off):
 * it reads as a review.
 */
export function holdWords(hold: DepositHold): string {
  return hold === 'limit' ? "Held: above your verification level's deposit limit — verify to release." : 'Held: under review. Please contact support.';
}

/** The back office's words. */
export function holdWordsForAdmins(hold: DepositHold): string {
  return hold === 'limit' ? "Held: above the customer's verification level's deposit limit" : 'Held and frozen: sent from a sanctioned address';
}
