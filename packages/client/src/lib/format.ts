/**
 * One date and number format for the admin screens, in the browser's locale (Intl): dates like "Nov 23, 2026" as on
 * the customer pages, with the time where it matters ("Nov 23, 2026, 4:04 PM"). `locale` and `timeZone` are for tests.
 */
export interface FormatOptions {
  locale?: string;
  timeZone?: string;
}

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(withTime: boolean, { locale, timeZone }: FormatOptions): Intl.DateTimeFormat {
  const key = `d|${withTime}|${locale ?? ''}|${timeZone ?? ''}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      ...(withTime ? { hour: 'numeric', minute: '2-digit' } : {}),
      ...(timeZone ? { timeZone } : {}),
    });
    cache.set(key, format);
  }
  return format;
}

function numberFormat(kind: 'usd' | 'number', maximumFractionDigits: number, { locale }: FormatOptions): Intl.NumberFormat {
  const key = `n|${kind}|${maximumFractionDigits}|${locale ?? ''}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format =
      kind === 'usd'
        ? new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' })
        : new Intl.NumberFormat(locale, { maximumFractionDigits, minimumFractionDigits: 0 });
    cache.set(key, format);
  }
  return format;
}

const toDate = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/** "Nov 23, 2026"; '' for a missing or invalid date. */
export function formatDate(value: string | number | Date | null | undefined, options: FormatOptions = {}): string {
  if (value === null || value === undefined) return '';
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat(false, options).format(date);
}

/** "Nov 23, 2026, 4:04 PM"; '' for a missing or invalid date. */
export function formatDateTime(value: string | number | Date | null | undefined, options: FormatOptions = {}): string {
  if (value === null || value === undefined) return '';
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat(true, options).format(date);
}

/** "$50,000.00" (USD in the browser's locale); a non-number gives ''. */
export function formatUsd(value: number | string | null | undefined, options: FormatOptions = {}): string {
  const n = typeof value === 'number' ? value : Number(value);
  return value === null || value === undefined || value === '' || !Number.isFinite(n) ? '' : numberFormat('usd', 2, options).format(n);
}

/**
 * A token quantity with grouping, keeping up to `decimals` decimals ("1,234.5"). Exact decimal strings longer than a
 * double can hold keep their digits: only the integer part is grouped.
 */
export function formatQuantity(value: string | number | null | undefined, decimals = 8, options: FormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value).trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = ''] = match;
  const grouped = numberFormat('number', 0, options).format(BigInt(whole));
  const kept = fraction.slice(0, decimals).replace(/0+$/, '');
  const separator =
    numberFormat('number', 1, options)
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.';
  return `${sign}${grouped}${kept ? `${separator}${kept}` : ''}`;
}
