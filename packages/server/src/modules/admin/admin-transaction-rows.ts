import { ConflictError } from '../../common/errors';

/**
 * What the admin money commands share besides their SQL functions: the labels and errors their texts use (an approval
 * being applied: approvals/applying.ts). Pure: no database access.
 */

/** A transaction's type as people read it (cp_type_label writes the same in the functions' notifications). */
export const TYPE_LABEL: Record<string, string> = { deposit: 'deposit', withdrawal: 'withdrawal', swap: 'swap', adjustment: 'balance adjustment' };

/** A status change or void would give a customer money (or a pending transaction) in a token no longer supported. */
export const removedToken = (symbol: string) =>
  new ConflictError(`${symbol} is no longer a supported token, so this would leave the customer holding it. Add the token again first.`);
