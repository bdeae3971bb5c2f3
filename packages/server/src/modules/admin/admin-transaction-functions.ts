import { SqlFunction } from '../../db/sql-function';
import type { BoundLine } from '../ledger/four-eyes-policy';
import type { BalanceChange } from '../ledger/ledger-events';
import { customer, LEASED_SHARD, type Leg, platform } from '../ledger/ledger.service';
import { toMoney } from '../ledger/money';
import type { NotificationRow } from '../notifications/notifications.service';
import type { TransactionView } from '../wallet/transactions.repository';

/** The admin's transaction commands (drizzle/0014_admin_transaction_functions.sql); values in the order of their parameters. */
export const DEPOSIT = new SqlFunction('cp_deposit', [
  'uuid', // p_transaction
  'uuid', // p_user
  'text', // p_token
  'text', // p_network
  'text', // p_address
  'numeric', // p_quantity
  'numeric', // p_usd
  'numeric', // p_price
  'text', // p_status
  'timestamptz', // p_at
  'uuid', // p_actor
  'int', // p_shard
  'jsonb', // p_key
  'jsonb', // p_records
]);

/** What a status change would move, under the transaction's row lock (read by the four-eyes gate first). */
export const PLAN_TRANSACTION_STATUS = new SqlFunction('cp_plan_transaction_status', [
  'uuid', // p_transaction
  'text', // p_to
  'text', // p_expected
  'text', // p_tx_hash
]);

export const SET_TRANSACTION_STATUS = new SqlFunction('cp_set_transaction_status', [
  'uuid', // p_transaction
  'text', // p_to
  'text', // p_expected
  'text', // p_tx_hash
  'text', // p_tx_hash_link
  'uuid', // p_actor
  'int', // p_shard
  'jsonb', // p_audit
]);

/** What a void would move, under the transaction's row lock (read by the four-eyes gate first). */
export const PLAN_VOID_TRANSACTION = new SqlFunction('cp_plan_void_transaction', [
  'uuid', // p_transaction
  'text', // p_expected
]);

export const VOID_TRANSACTION = new SqlFunction('cp_void_transaction', [
  'uuid', // p_transaction
  'text', // p_expected
  'uuid', // p_actor
  'int', // p_shard
  'jsonb', // p_audit
]);

/** A transaction as the functions return it (`cp_transaction_view`): timestamps as JSON text. */
type ViewJson = Omit<TransactionView, 'createdAt' | 'voidedAt'> & { createdAt: string; voidedAt: string | null };

/** What `cp_deposit` returns: the customer as it read them, and the answer it stored with the Idempotency-Key. */
export interface DepositOutcome {
  userName: string;
  userEmail: string;
  answer: string | null;
}

/** What a plan function returns: the transaction as it is, and the ledger lines the command would post. */
export interface Plan {
  /** A status change only: false when the transaction already has that status (nothing would be written). */
  changes?: boolean;
  transaction: ViewJson;
  lines: BoundLine[];
}

/** What a status change or void returns once applied (a status change already in place: `changed` false, nothing else). */
export interface Applied {
  changed?: boolean;
  transaction: ViewJson;
  lines?: BoundLine[];
  notification?: NotificationRow;
}

export function viewOf(json: ViewJson): TransactionView {
  return { ...json, createdAt: new Date(json.createdAt), voidedAt: json.voidedAt === null ? null : new Date(json.voidedAt) };
}

/** The lines of a plan as ledger legs (what the four-eyes policy decides from; platform lines on the posting's shard). */
export function legsOf(lines: BoundLine[]): Leg[] {
  return lines.map((line) => ({
    account: line.account === 'customer' ? customer(line.userId!, line.token) : platform(line.account, line.token, LEASED_SHARD),
    amount: toMoney(line.amount),
  }));
}

/** The customer balances the lines change (their live events). */
export function balanceChangesOf(lines: BoundLine[] = []): BalanceChange[] {
  return lines.filter((line) => line.account === 'customer').map((line) => ({ userId: line.userId!, token: line.token }));
}

/** The customers' balances a status change or void moved, from the lines it returned (the customer is only known there). */
export const CUSTOMER_CHANGES = (result: unknown): BalanceChange[] => balanceChangesOf((result as Applied).lines);
