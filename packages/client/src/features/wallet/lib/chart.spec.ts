import { describe, expect, it } from 'vitest';
import { lateHistoryStart, spanName } from './chart';

const DAY = 86_400_000;
const end = Date.UTC(2026, 10, 21, 23);
const hourly = (days: number): Array<[number, number]> => Array.from({ length: days * 24 }, (_, i) => [end - (days * 24 - 1 - i) * 3_600_000, 100 + i]);

describe('lateHistoryStart', () => {
  it('says nothing when the points cover the range (a week of hourly points for 1W, a day for 1D)', () => {
    expect(lateHistoryStart(hourly(7), 7 * DAY)).toBeUndefined();
    expect(lateHistoryStart(hourly(7).slice(-24), DAY)).toBeUndefined();
  });

  it('gives the first point when the stored week stands for a month or a year', () => {
    const week = hourly(7);
    expect(lateHistoryStart(week, 30 * DAY)).toBe(week[0]![0]);
    expect(lateHistoryStart(week, 365 * DAY)).toBe(week[0]![0]);
  });

  it('"all" always starts at the first point; no note without at least two points', () => {
    const week = hourly(7);
    expect(lateHistoryStart(week, null)).toBe(week[0]![0]);
    expect(lateHistoryStart([[end, 1]], 30 * DAY)).toBeUndefined();
    expect(lateHistoryStart([], null)).toBeUndefined();
  });
});

describe('spanName', () => {
  it('names a span in the unit a person would use, rounded', () => {
    expect(spanName(22.6 * 3_600_000)).toBe('23 hours');
    expect(spanName(3_600_000)).toBe('1 hour');
    expect(spanName(DAY * 6.96)).toBe('7 days');
    expect(spanName(DAY * 1.6)).toBe('2 days');
    expect(spanName(DAY * 45)).toBe('45 days');
    expect(spanName(DAY * 700)).toBe('23 months');
    expect(spanName(DAY * 365 * 3.2)).toBe('3 years');
  });
});
