import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  formatAsOf,
  formatChange,
  formatCoinAmount,
  formatCompactUsd,
  formatDate,
  formatDateTime,
  formatPrice,
  formatQuantity,
  formatRate,
  formatUsd,
  setFormatLocale,
} from './format';

describe('the one formatter (en-US)', () => {
  beforeAll(() => setFormatLocale('en-US'));
  afterAll(() => setFormatLocale(undefined));

  it('USD with grouping and cents', () => {
    expect(formatUsd(95253.8)).toBe('$95,253.80');
    expect(formatUsd('1234567.494126')).toBe('$1,234,567.49');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd('not a number')).toBe('$0.00');
  });

  it('prices: cents from $1, significant digits below (SHIB)', () => {
    expect(formatPrice(95253.8)).toBe('$95,253.80');
    expect(formatPrice(0.00001234)).toBe('$0.00001234');
    expect(formatPrice(0.000012345678)).toBe('$0.00001235');
    expect(formatPrice(0.5)).toBe('$0.50');
    expect(formatPrice(0.99987)).toBe('$0.9999');
    expect(formatPrice(1)).toBe('$1.00');
  });

  it('coin amounts with grouping and the spec decimals (§9)', () => {
    expect(formatCoinAmount(1234320.63, 'tether')).toBe('1,234,320.63');
    expect(formatCoinAmount(23674242.424, 'shiba-inu')).toBe('23,674,242.424');
    expect(formatCoinAmount(0.02, 'bitcoin')).toBe('0.02000000');
    expect(formatCoinAmount('1.5', 'ethereum')).toBe('1.500000');
    expect(formatCoinAmount(undefined, 'solana')).toBe('0.000');
  });

  it('exchange rates', () => {
    expect(formatRate(20.123456)).toBe('20.1235');
    expect(formatRate(0.0496912)).toBe('0.04969');
    expect(formatRate(2500)).toBe('2,500');
  });

  it('compact market caps', () => {
    expect(formatCompactUsd(1925000000000)).toBe('$1.93T');
    expect(formatCompactUsd(812_400_000_000)).toBe('$812.4B');
    expect(formatCompactUsd(45_600_000)).toBe('$45.6M');
    expect(formatCompactUsd(999)).toBe('$999');
  });

  it('24h change with 2 decimals, + when positive', () => {
    expect(formatChange(2.345)).toBe('+2.35%');
    expect(formatChange(-1.5)).toBe('-1.50%');
    expect(formatChange(0)).toBe('0.00%');
  });

  it('dates in one style', () => {
    const at = '2026-11-21T10:04:00Z';
    expect(formatDate(at, 'UTC')).toBe('Nov 21, 2026');
    expect(formatDateTime(at, 'UTC')).toBe('Nov 21, 2026, 10:04 AM');
    expect(formatAsOf(at, 'UTC')).toBe('Nov 21, 10:04');
    expect(formatDate('garbage')).toBe('');
  });

  it('follows another locale when the browser has one', () => {
    setFormatLocale('de-DE');
    expect(formatCoinAmount(1234320.63, 'tether')).toBe('1.234.320,63');
    setFormatLocale('en-US');
  });
});

describe('formatQuantity (admin tables)', () => {
  afterEach(() => setFormatLocale('en-US'));
  it('groups the integer part and keeps exact decimals', () => {
    setFormatLocale('en-US');
    expect(formatQuantity('12345678.123456789012', 8)).toBe('12,345,678.12345678');
    expect(formatQuantity('1.50000000')).toBe('1.5');
    expect(formatQuantity(null)).toBe('');
    setFormatLocale('de-DE');
    expect(formatQuantity('1000.25')).toBe('1.000,25');
  });
});
