import { ACCOUNT_FROZEN_MESSAGE } from '@coinpurse/contract';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, ServiceUnavailableError } from '../../common/errors';
import { MONEY_CODES } from '../ledger/money-errors';
import { limitRefusal } from '../verification/limit-refusal';

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

/** The fee schedule changed between reading a swap's or send's terms and running it: read again once, like a price. */
export class FeesChangedError extends PriceMovedError {}

/** The answer to a swap with a quote that has expired (409: nothing moved; ask for a new quote). */
export const QUOTE_EXPIRED = 'quote expired';

/** The 409 of the house position: what a person reads, naming the token by its name. */
export function housePositionMessage(token: { name?: string; symbol: string }): string {
  const name = token.name || token.symbol.toUpperCase();
  return `Swaps into ${name} are paused: not enough ${name} is available. Please try again later or choose another token.`;
}

/** The domain error of a fee, quote or house-position refusal (drizzle/0050_fees.sql), or undefined. */
export function feeRefusalOf(
  code: string,
  detail: string,
  tokens: Array<{ id: string; symbol: string; name?: string }>,
  kind: 'swap' | 'send',
): Error | undefined {
  const token = tokens.find((t) => t.id === detail) ?? tokens[tokens.length - 1];
  switch (code) {
    case MONEY_CODES.quoteExpired:
      return new ConflictError(QUOTE_EXPIRED);
    case MONEY_CODES.quoteNotFound:
      return new NotFoundError('This quote was not found: ask for a new quote.');
    case MONEY_CODES.quoteUsed:
      return new ConflictError('This quote was already used: ask for a new quote.');
    case MONEY_CODES.feesChanged:
      return new FeesChangedError();
    case MONEY_CODES.feesNotCovered:
      return new InvalidInputError(
        kind === 'swap'
          ? `The amount is too small to cover the swap fee: you would receive no ${token.symbol.toUpperCase()}.`
          : `The amount does not cover the withdrawal fee of ${token.symbol.toUpperCase()}.`,
      );
    case MONEY_CODES.housePosition:
      return new ConflictError(housePositionMessage(token));
    default:
      return undefined;
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
    case MONEY_CODES.overLimit:
      return limitRefusal(code, detail);
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
