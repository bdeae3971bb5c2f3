import type { TravelRuleDto } from '@coinpurse/contract';
import { InvalidInputError } from '../../common/errors';
import { type Money, toMoney } from '../ledger/money';

/** The travel-rule details as kept in a withdrawal's `details.travelRule` (only the fields that apply). */
export type TravelRuleRecord = Pick<TravelRuleDto, 'recipient' | 'wallet'> & { beneficiaryName?: string; exchangeName?: string };

/**
 * The travel rule: a send of `thresholdUsd` or more (the USD amount asked) needs whose wallet it is, the beneficiary's
 * name when it is someone else's, and the exchange's name for an exchange (the DTO checks each field given). Below the
 * threshold, details given are kept too. Undefined: none given (below the threshold).
 */
export function travelRuleOf(given: TravelRuleDto | undefined, usd: Money, thresholdUsd: string): TravelRuleRecord | undefined {
  if (!given) {
    if (usd.gte(toMoney(thresholdUsd)))
      throw new InvalidInputError(
        `A send of ${thresholdUsd} USD or more needs to say who it goes to: whose wallet it is, the beneficiary's name, and the exchange's name for an exchange.`,
      );
    return undefined;
  }
  return {
    recipient: given.recipient,
    wallet: given.wallet,
    ...(given.recipient === 'other' && given.beneficiaryName ? { beneficiaryName: given.beneficiaryName } : {}),
    ...(given.wallet === 'exchange' && given.exchangeName ? { exchangeName: given.exchangeName } : {}),
  };
}
