// One formatter for every amount and date people read (customer and admin screens): Intl in the browser's locale.
// Display only — payload amounts (`coinAmount`) keep their plain fixed decimals (lib/money.ts).

/** Spec §9: coin amount decimals — ethereum 6, bitcoin 8, tether 2, others 3. */
export function coinDecimals(tokenId: string): number {
  switch (tokenId) {
    case 'ethereum':
      return 6;
    case 'bitcoin':
      return 8;
    case 'tether':
      return 2;
    default:
      return 3;
  }
}

let locale: string | undefined;

/** The browser's locale (en-US where there is none, e.g. unit tests); `setFormatLocale` pins one. */
export function formatLocale(): string {
  return locale ?? (typeof navigator !== 'undefined' && navigator.language ? navigator.language : 'en-US');
}

export function setFormatLocale(value: string | undefined): void {
  locale = value;
  formats.clear();
}

// Intl formatters are costly to build; one per locale and options.
const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${formatLocale()}|${JSON.stringify(options)}`;
  let format = formats.get(key) as Intl.NumberFormat | undefined;
  if (!format) formats.set(key, (format = new Intl.NumberFormat(formatLocale(), options)));
  return format;
}
function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${formatLocale()}|${JSON.stringify(options)}`;
  let format = formats.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(formatLocale(), options)));
  return format;
}

const toNumber = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 0;
};

const USD = { style: 'currency', currency: 'USD' } as const;

/** USD with grouping and cents: $95,253.80 */
export function formatUsd(value: unknown): string {
  return numberFormat({ ...USD, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(toNumber(value));
}

/** A coin price: cents from $1 up, 4 significant digits below (SHIB $0.00001234, $0.5123). */
export function formatPrice(value: unknown): string {
  const n = toNumber(value);
  if (n > 0 && n < 1) return numberFormat({ ...USD, minimumSignificantDigits: 2, maximumSignificantDigits: 4 }).format(n);
  return formatUsd(n);
}

/** A coin amount with grouping and the token's decimals (spec §9): 1,234,320.63 for tether, 0.02000000 for bitcoin. */
export function formatCoinAmount(value: unknown, tokenId: string): string {
  const decimals = coinDecimals(tokenId);
  return numberFormat({ minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(toNumber(value));
}

/** An exchange rate: up to 4 decimals from 1 up (20.1234), 4 significant digits below (0.04969). */
export function formatRate(value: unknown): string {
  const n = toNumber(value);
  return n > 0 && n < 1
    ? numberFormat({ maximumSignificantDigits: 4 }).format(n)
    : numberFormat({ minimumFractionDigits: 0, maximumFractionDigits: 4 }).format(n);
}

/** Market caps and volumes: $1.93T, $812.4B, $45.6M. */
export function formatCompactUsd(value: unknown): string {
  return numberFormat({ ...USD, notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(toNumber(value));
}

/** 'up' (green) for positive change, 'down' (red) for negative, 'flat' otherwise. */
export function changeDirection(percent: unknown): 'up' | 'down' | 'flat' {
  const n = toNumber(percent);
  return n > 0 ? 'up' : n < 0 ? 'down' : 'flat';
}

/** 24h change with 2 decimals and a sign when positive: +1.23%, -1.50% (spec §9). */
export function formatChange(percent: unknown): string {
  const n = toNumber(percent);
  return numberFormat({ style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(n / 100);
}

const asDate = (value: string | number | Date | null | undefined): Date | undefined => {
  if (value === null || value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** Short month, day, year: Nov 21, 2026 (invalid dates give ''). */
export function formatDate(value: string | number | Date | null | undefined, timeZone?: string): string {
  const date = asDate(value);
  return date ? dateFormat({ month: 'short', day: 'numeric', year: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(date) : '';
}

/** Date and time to the minute: Nov 21, 2026, 10:04 AM. */
export function formatDateTime(value: string | number | Date | null | undefined, timeZone?: string): string {
  const date = asDate(value);
  return date
    ? dateFormat({ month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', ...(timeZone ? { timeZone } : {}) }).format(date)
    : '';
}

/** A price time for banners: Nov 21, 10:04 (24-hour clock). */
export function formatAsOf(value: string | number | Date, timeZone?: string): string {
  const date = asDate(value);
  return date
    ? dateFormat({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) }).format(date)
    : '';
}

/**
 * A recorded token quantity with grouping, keeping up to `decimals` decimals ("12,345,678.12345678"; trailing zeros
 * dropped). Exact decimal strings longer than a double can hold keep their digits: only the integer part is grouped.
 */
export function formatQuantity(value: string | number | null | undefined, decimals = 8): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value).trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = ''] = match;
  const grouped = numberFormat({ maximumFractionDigits: 0 }).format(BigInt(whole));
  const kept = fraction.slice(0, decimals).replace(/0+$/, '');
  const separator =
    numberFormat({ minimumFractionDigits: 1 })
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.';
  return `${sign}${grouped}${kept ? `${separator}${kept}` : ''}`;
}
