/** Verification levels and their limits (issue 35; see `.env.example`). */

/** What a level may move, in USD: per rolling day and per rolling 30 days; null is "no limit". */
export interface LevelLimits {
  depositDay: string | null;
  depositMonth: string | null;
  withdrawalDay: string | null;
  withdrawalMonth: string | null;
  /** The largest single withdrawal. */
  withdrawalSingle: string | null;
  swapDay: string | null;
  swapMonth: string | null;
}

export const VERIFICATION_LEVELS = [0, 1, 2] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

export interface KycSettings {
  /** `KYC_LIMITS=on`: the money functions enforce each level's limits (off: no limit, as before). */
  limitsEnabled: boolean;
  /** The limits each level starts with (`KYC_LEVEL_<N>_LIMITS`); the back office changes them afterwards. */
  defaults: Record<VerificationLevel, LevelLimits>;
}

/**
 * The defaults: level 0 deposits and swaps up to 1,000 USD a day and no withdrawals; level 1 10,000 a day and
 * 50,000 per 30 days each; level 2 100,000 and 500,000. The largest single withdrawal is the day's limit.
 */
export const DEFAULT_LEVEL_LIMITS: Record<VerificationLevel, string> = {
  0: 'deposit=1000/-,withdrawal=0/0,single=0,swap=1000/-',
  1: 'deposit=10000/50000,withdrawal=10000/50000,single=10000,swap=10000/50000',
  2: 'deposit=100000/500000,withdrawal=100000/500000,single=100000,swap=100000/500000',
};

const AMOUNT = /^(\d{1,15}(\.\d{1,2})?|-)$/;

/**
 * `deposit=<day>/<30 days>,withdrawal=<day>/<30 days>,single=<one withdrawal>,swap=<day>/<30 days>`, each in USD or
 * `-` for no limit; a part left out keeps the default's.
 */
export function parseLevelLimits(raw: string, fallback: LevelLimits | undefined): LevelLimits | string {
  const limits: LevelLimits = fallback
    ? { ...fallback }
    : { depositDay: null, depositMonth: null, withdrawalDay: null, withdrawalMonth: null, withdrawalSingle: null, swapDay: null, swapMonth: null };
  const value = (text: string) => (text === '-' ? null : text);
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, figures = '', ...rest] = part.split('=');
    const [day, month, ...more] = figures.split('/');
    if (rest.length || more.length) return `"${part}" is not name=day/30days`;
    if (name === 'single') {
      if (!AMOUNT.test(figures)) return `single must be a USD amount or - (got "${figures}")`;
      limits.withdrawalSingle = value(figures);
      continue;
    }
    if (!['deposit', 'withdrawal', 'swap'].includes(name)) return `"${name}" is not deposit, withdrawal, single or swap`;
    if (!AMOUNT.test(day ?? '') || !AMOUNT.test(month ?? '')) return `${name} must be <day>/<30 days> in USD, - for none (got "${figures}")`;
    const key = name as 'deposit' | 'withdrawal' | 'swap';
    limits[`${key}Day`] = value(day);
    limits[`${key}Month`] = value(month);
  }
  return limits;
}

export function parseKycSettings(env: NodeJS.ProcessEnv, problems: string[]): KycSettings {
  const switchRaw = env.KYC_LIMITS?.trim().toLowerCase() ?? '';
  let limitsEnabled = false;
  if (['on', 'true', '1', 'yes'].includes(switchRaw)) limitsEnabled = true;
  else if (!['', 'off', 'false', '0', 'no'].includes(switchRaw)) problems.push(`KYC_LIMITS must be on or off (got "${env.KYC_LIMITS}")`);
  const defaults = {} as Record<VerificationLevel, LevelLimits>;
  for (const level of VERIFICATION_LEVELS) {
    const builtIn = parseLevelLimits(DEFAULT_LEVEL_LIMITS[level], undefined) as LevelLimits;
    const raw = env[`KYC_LEVEL_${level}_LIMITS`]?.trim();
    const parsed = raw ? parseLevelLimits(raw, builtIn) : builtIn;
    if (typeof parsed === 'string') {
      problems.push(`KYC_LEVEL_${level}_LIMITS: ${parsed}`);
      defaults[level] = builtIn;
    } else defaults[level] = parsed;
  }
  return { limitsEnabled, defaults };
}
