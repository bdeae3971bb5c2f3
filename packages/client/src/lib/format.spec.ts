import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatQuantity, formatUsd } from './format';

const en = { locale: 'en-US', timeZone: 'UTC' };

describe('admin date and number format (Intl)', () => {
  it('dates like the customer pages, with the time where it matters', () => {
    expect(formatDate('2026-11-23T04:04:13Z', en)).toBe('Nov 23, 2026');
    expect(formatDateTime('2026-11-23T16:04:13Z', en)).toBe('Nov 23, 2026, 4:04 PM');
    expect(formatDateTime('2026-11-23T16:04:13Z', { locale: 'de-DE', timeZone: 'UTC' })).toBe('23. Nov. 2026, 16:04');
  });
  it('missing or invalid dates give an empty string', () => {
    expect(formatDate('nope')).toBe('');
    expect(formatDateTime(null)).toBe('');
  });
  it('USD and quantities in the locale, exact digits kept', () => {
    expect(formatUsd(50000, en)).toBe('$50,000.00');
    expect(formatUsd('1234.5', { locale: 'de-DE' }).replace(/\s/g, ' ')).toBe('1.234,50 $');
    expect(formatUsd('x')).toBe('');
    expect(formatQuantity('12345678.123456789012', 8, en)).toBe('12,345,678.12345678');
    expect(formatQuantity('1.50000000', 8, en)).toBe('1.5');
    expect(formatQuantity('2', 8, { locale: 'de-DE' })).toBe('2');
    expect(formatQuantity('1000.25', 8, { locale: 'de-DE' })).toBe('1.000,25');
  });
});
