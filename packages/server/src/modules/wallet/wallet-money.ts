import { ACCOUNT_FROZEN_MESSAGE } from '@coinpurse/contract';
import { ForbiddenError, ServiceUnavailableError, InvalidInputError } from '../../common/errors';
import { MONEY_CODES } from '../ledger/money-errors';

/**
 * What the customer's money calls share: the refusals their functions raise (drizzle/0013_wallet_functions.sql) as
 * domain errors, and the price moved meanwhile.
 */

/**
 * A quoted price was no longer current when the movement ran (nothing moved). A 503: transient, so an Idempotency-Key
 * does not keep it (a retry with the same key runs again).
 */
export class PriceMovedError extends ServiceUnavailableError {
  constructor() {
    super('The price changed while your request was being processed. Nothing was moved: please try again.');
  }
}

/** The domain error of a refusal of `cp_send` / `cp_swap` (undefined: not one of theirs). */
export function refusalOf(code: string, detail: string, tokens: Array<{ id: string; symbol: string }>, symbol: string): Error | undefined {
  switch (code) {
    case MONEY_CODES.insufficient:
      return new InvalidInputError(`Insufficient ${symbol} balance`);
    case MONEY_CODES.accountFrozen:
      return new ForbiddenError(ACCOUNT_FROZEN_MESSAGE);
    case MONEY_CODES.priceMoved:
      return new PriceMovedError();
    case MONEY_CODES.tokenGone: {
      const gone = tokens.find((token) => token.id === detail) ?? tokens[0];
      return new InvalidInputError(`${gone.symbol.toUpperCase()} is no longer a supported token: it was removed meanwhile. Reload and try again.`);
    }
    default:
      return undefined;
  }
}

/** Runs `once`, and once more when the price it quoted moved meanwhile (a stale cache): quoted again. */
export async function atCurrentPrice<T>(once: () => Promise<T>): Promise<T> {
  try {
    return await once();
  } catch (error) {
    if (!(error instanceof PriceMovedError)) throw error;
    return once();
  }
}
