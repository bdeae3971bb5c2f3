import { describe, expect, it } from 'vitest';
import { changeDirection, coinAmount, coinDecimals, formatChange, formatCoinAmount, formatUsd, parseAmount, swapOutput } from './money';

describe('coin decimals (spec §9)', () => {
  it('ethereum 6, bitcoin 8, tether 2, others 3', () => {
    expect(coinDecimals('ethereum')).toBe(6);
    expect(coinDecimals('bitcoin')).toBe(8);
    expect(coinDecimals('tether')).toBe(2);
    expect(coinDecimals('solana')).toBe(3);
    expect(coinDecimals('my-custom-token')).toBe(3);
  });
  it('formats amounts with the token decimals', () => {
    expect(formatCoinAmount(0.1234567891, 'bitcoin')).toBe('0.12345679');
    expect(formatCoinAmount(1.5, 'ethereum')).toBe('1.500000');
    expect(formatCoinAmount(10, 'tether')).toBe('10.00');
    expect(formatCoinAmount('2.34567', 'solana')).toBe('2.346');
    expect(formatCoinAmount('not a number', 'solana')).toBe('0.000');
  });
});

describe('coin amount = USD / price (spec §5)', () => {
  it('divides the USD amount by the current price', () => {
    expect(coinAmount(100, 50000)).toBe(0.002);
    expect(coinAmount('250', '2500')).toBe(0.1);
  });
  it('is 0 when the amount or the price is not positive', () => {
    expect(coinAmount(0, 50000)).toBe(0);
    expect(coinAmount(-5, 50000)).toBe(0);
    expect(coinAmount(100, 0)).toBe(0);
    expect(coinAmount(100, -1)).toBe(0);
    expect(coinAmount('', 100)).toBe(0);
    expect(coinAmount(NaN, 100)).toBe(0);
  });
});

describe('swap output = from-amount × from price / to price (spec §9)', () => {
  it('converts at the two prices', () => {
    expect(swapOutput(0.01, 50000, 2500)).toBeCloseTo(0.2, 12);
    expect(formatCoinAmount(swapOutput(0.01, 50000, 2500), 'ethereum')).toBe('0.200000');
    expect(formatCoinAmount(swapOutput(1, 2500, 1), 'tether')).toBe('2500.00');
  });
  it('is 0 without a positive amount or prices', () => {
    expect(swapOutput(0, 50000, 2500)).toBe(0);
    expect(swapOutput(1, 0, 2500)).toBe(0);
    expect(swapOutput(1, 50000, 0)).toBe(0);
  });
});

describe('display helpers', () => {
  it('USD with 2 decimals and thousands separators', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd('99.999')).toBe('$100.00');
  });
  it('24h change with 2 decimals, + when positive', () => {
    expect(formatChange(1.23456)).toBe('+1.23%');
    expect(formatChange(-0.5)).toBe('-0.50%');
    expect(formatChange(null)).toBe('0.00%');
    expect(changeDirection(2)).toBe('up');
    expect(changeDirection(-2)).toBe('down');
    expect(changeDirection(0)).toBe('flat');
  });
  it('parses typed amounts, refusing negatives and garbage', () => {
    expect(parseAmount('12.5')).toBe(12.5);
    expect(parseAmount('-3')).toBe(0);
    expect(parseAmount('abc')).toBe(0);
    expect(parseAmount('')).toBe(0);
  });
});
