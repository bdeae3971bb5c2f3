import { ForbiddenError } from '../../common/errors';
import { MONEY_CODES } from '../ledger/money-errors';
import { HOW_TO_RAISE, LIMIT_KIND_WORDS, usdWords } from './verification-texts';

interface LimitDetail {
  kind: 'deposit' | 'withdrawal' | 'swap';
  period: 'single' | 'day' | 'month';
  level: number;
  limitUsd: string;
  leftUsd: string;
}

/** Two places, rounded down: what is left is never shown as more than it is. */
function cents(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

/**
 * The 403 of cp_require_within_limits (CPL01): the limit, what is left of it and how to raise it, in words and in
 * `details` (limitUsd, leftUsd, period, level). Undefined for any other code.
 */
export function limitRefusal(code: string, detail: string): ForbiddenError | undefined {
  if (code !== MONEY_CODES.overLimit) return undefined;
  const limit = JSON.parse(detail) as LimitDetail;
  const left = cents(limit.leftUsd);
  const what = LIMIT_KIND_WORDS[limit.kind];
  const raise = limit.level >= 2 ? 'Contact support to ask for a higher limit.' : HOW_TO_RAISE;
  const message =
    Number(limit.limitUsd) === 0
      ? `Level ${limit.level} allows no ${what}. ${raise}`
      : limit.period === 'single'
        ? `This is over the largest single withdrawal of level ${limit.level}: ${usdWords(cents(limit.limitUsd))}. ${raise}`
        : `This is over your level-${limit.level} limit for ${what}: ${usdWords(cents(limit.limitUsd))} ${limit.period === 'day' ? 'a day' : 'per 30 days'}, ${usdWords(left)} left. ${raise}`;
  return new ForbiddenError(message, {
    limitUsd: [cents(limit.limitUsd)],
    leftUsd: [left],
    period: [limit.period],
    level: [String(limit.level)],
    raise: [raise],
  });
}
