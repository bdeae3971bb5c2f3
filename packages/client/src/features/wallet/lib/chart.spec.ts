import { describe, expect, it } from 'vitest';
import { offlineHistoryStart } from './chart';

const DAY = 86_400_000;
const end = Date.UTC(2026, 10, 21, 23);
const hourly = (days: number): Array<[number, number]> => Array.from({ length: days * 24 }, (_, i) => [end - (days * 24 - 1 - i) * 3_600_000, 100 + i]);

describe('offlineHistoryStart', () => {
  it('says nothing when the points cover the range (a week of hourly points for 1W, a day for 1D)', () => {
    expect(offlineHistoryStart(hourly(7), 7 * DAY)).toBeUndefined();
    expect(offlineHistoryStart(hourly(7).slice(-24), DAY)).toBeUndefined();
  });

  it('gives the first point when the stored week stands for a month or a year', () => {
    const week = hourly(7);
    expect(offlineHistoryStart(week, 30 * DAY)).toBe(week[0]![0]);
    expect(offlineHistoryStart(week, 365 * DAY)).toBe(week[0]![0]);
  });

  it('"all" always starts at the first point; no note without at least two points', () => {
    const week = hourly(7);
    expect(offlineHistoryStart(week, null)).toBe(week[0]![0]);
    expect(offlineHistoryStart([[end, 1]], 30 * DAY)).toBeUndefined();
    expect(offlineHistoryStart([], null)).toBeUndefined();
  });
});
