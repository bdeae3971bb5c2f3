import type { LevelLimitsDto } from '@coinpurse/contract';

/** What each level asks for, in the words the Verification screen and the 403s use. */
export const LEVEL_REQUIREMENTS: Record<number, string> = {
  0: 'An account: every customer starts here.',
  1: 'Your legal name, date of birth, residential address and country, an identity document (front, and back unless it is a passport) and a selfie.',
  2: 'Level 1, and a proof of address (a utility bill or bank statement from the last 3 months).',
};

export const HOW_TO_RAISE = 'To raise it, verify your identity in Profile → Verification.';

export const MISSING_DETAILS = 'Your legal name, date of birth, residential address and country';
export const MISSING_TEXTS = {
  id_front: 'The front of your identity document',
  id_back: 'The back of your identity document (not needed for a passport)',
  selfie: 'A selfie',
  proof_of_address: 'A proof of address (a utility bill or bank statement from the last 3 months)',
} as const;

export const LIMIT_KIND_WORDS = { deposit: 'deposits', withdrawal: 'withdrawals', swap: 'swaps' } as const;

export function usdWords(amount: string): string {
  const [whole, cents] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = cents && Number(cents) !== 0 ? `.${cents.padEnd(2, '0').slice(0, 2)}` : '';
  return `${grouped}${fraction} USD`;
}

export type LimitsRecord = LevelLimitsDto;
