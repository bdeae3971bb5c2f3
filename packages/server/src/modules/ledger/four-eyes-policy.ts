import type { TransactionStatus } from '@coinpurse/contract';
import { ConflictError } from '../../common/errors';
import type { AccountKey, PlatformCode } from './ledger.repository';
import type { Leg } from './ledger.service';
import { plain, toMoney } from './money';

/**
 * The four-eyes rule, written once.
 *
 * 1. Where a transaction's quantity sits in each status (`location`): a deposit's with the customer once approved, else
 *    in the platform's deposits account; a withdrawal's held in withdrawals_pending, paid out in withdrawals_settled,
 *    back with the customer when rejected. A status change moves the quantity from one place to the other; a void moves
 *    it back to where it came from.
 * 2. What the platform owes its customers is their balances plus their held (pending) withdrawals. A movement that
 *    crosses that line — money into a customer's hands from a platform account other than the holds, or out of what is
 *    owed (settling a withdrawal, taking a deposit back, debiting an adjustment) — is gated by value (`isGated`): at or
 *    above APPROVAL_THRESHOLD_USD, alone or summed over the window, a second admin must approve it. A movement only
 *    between a customer and their own hold (rejecting a pending withdrawal, holding it again) changes nothing owed and
 *    is never gated.
 *
 * The transition table this gives (tested row by row in back-office-approvals.test.ts):
 *
 * | transaction | from → to            | moves                         | gated |
 * |-------------|----------------------|-------------------------------|-------|
 * | deposit     | pending → approved   | deposits → customer           | yes   |
 * | deposit     | rejected → approved  | deposits → customer           | yes   |
 * | deposit     | approved → pending   | customer → deposits           | yes   |
 * | deposit     | approved → rejected  | customer → deposits           | yes   |
 * | deposit     | pending ↔ rejected   | nothing                       | no    |
 * | withdrawal  | pending → approved   | held → settled                | yes   |
 * | withdrawal  | rejected → approved  | customer → settled            | yes   |
 * | withdrawal  | approved → pending   | settled → held                | yes   |
 * | withdrawal  | approved → rejected  | settled → customer (refund)   | yes   |
 * | withdrawal  | pending → rejected   | held → customer               | no    |
 * | withdrawal  | rejected → pending   | customer → held               | no    |
 * | any         | void                 | the reverse of where it sits  | as its movement |
 * | adjustment  | add / set, ±         | adjustments ↔ customer        | yes   |
 */
// Where a transaction's quantity sits in each status (the table above) is `cp_transaction_location`
// (drizzle/0014_admin_transaction_functions.sql), the one place the rule is written.

/** Accounts inside the line of what is owed to customers: their balances and their held withdrawals. */
function isOwedToCustomers(account: AccountKey): boolean {
  return account.kind === 'customer' || account.code === 'withdrawals_pending';
}

/** Whether a movement crosses the line of what the platform owes its customers (see above): then it is gated by value. */
export function isGated(legs: Leg[]): boolean {
  return legs.some((leg) => !isOwedToCustomers(leg.account)) && legs.some((leg) => isOwedToCustomers(leg.account));
}

/** Why an action waits for a second admin, as the approver reads it. */
export type GateReason = 'threshold' | 'velocity' | 'settled-refund' | 'admin-change' | 'fee-change';

/** Paying a settled withdrawal back: coins that left on chain are credited again (named on the approver's screen). */
export function refundsSettledWithdrawal(legs: Leg[]): boolean {
  return legs.some((leg) => leg.account.kind === 'platform' && leg.account.code === 'withdrawals_settled' && leg.amount.isNegative());
}

/** One ledger line as the approval stores and shows it: the account (customer or platform code), token, signed amount. */
export interface BoundLine {
  account: 'customer' | PlatformCode;
  userId?: string;
  token: string;
  amount: string;
}

/**
 * What an approval applies, exactly: the ledger lines, and the basis they were decided from (a balance, a status). On
 * approval the action is decided again from the same basis; when its lines differ from these, nothing is applied (409).
 */
export interface BoundEffect {
  lines: BoundLine[];
  /** The price per coin (USD) at the request: the value shown, and the price the applied rows record. */
  price?: string;
  /** "set balance": the balance it was decided from and the one it sets; the delta is the customer line. */
  balanceBefore?: string;
  balanceAfter?: string;
  /** Status changes and voids: the status the transaction had at the request. */
  status?: TransactionStatus;
}

export function boundLines(legs: Leg[]): BoundLine[] {
  return legs.map((leg) => ({
    account: leg.account.kind === 'customer' ? 'customer' : leg.account.code,
    ...(leg.account.kind === 'customer' ? { userId: leg.account.userId } : {}),
    token: leg.account.token,
    amount: plain(leg.amount),
  }));
}

/** Whether legs decided now are exactly the lines an approval bound (same accounts, tokens and amounts, in order). */
export function sameLines(bound: BoundLine[], legs: Leg[]): boolean {
  const now = boundLines(legs);
  return (
    bound.length === now.length &&
    bound.every(
      (line, i) => line.account === now[i].account && line.userId === now[i].userId && line.token === now[i].token && toMoney(line.amount).eq(now[i].amount),
    )
  );
}

/** The customer's line of a bound effect (its signed amount): what an approved deposit or adjustment moves. */
export function boundCustomerAmount(effect: BoundEffect): string | undefined {
  return effect.lines.find((line) => line.account === 'customer')?.amount;
}

/** An approval whose effect no longer holds: 409, nothing applied, the request stays pending with the reason. */
export class StaleApprovalError extends ConflictError {}

export const BALANCE_CHANGED_SINCE_REQUEST = 'The balance changed since this was requested; ask again.';
export const MOVEMENT_CHANGED_SINCE_REQUEST = 'What this would move changed since it was requested; ask again.';
