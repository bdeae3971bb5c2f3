import { describe, expect, it } from 'vitest';
import { formatDate, previewWords } from './text';

describe('notification preview (20 words, spec §9)', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');
  it('keeps 20 words or fewer as they are', () => {
    expect(previewWords(words(20))).toBe(words(20));
    expect(previewWords('Deposit approved')).toBe('Deposit approved');
  });
  it('cuts after 20 words with an ellipsis', () => {
    expect(previewWords(words(21))).toBe(`${words(20)}...`);
    expect(previewWords(`  ${words(30)}\n`)).toBe(`${words(20)}...`);
  });
  it('counts words across line breaks and repeated spaces', () => {
    expect(previewWords('a\n\nb   c')).toBe('a b c');
  });
});

describe('date as short month day, year', () => {
  it('formats like Nov 21, 2026', () => {
    expect(formatDate('2026-11-21T12:00:00Z', 'UTC')).toBe('Nov 21, 2026');
    expect(formatDate(new Date(Date.UTC(2024, 0, 5, 12)), 'UTC')).toBe('Jan 5, 2024');
  });
  it('gives an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
  });
});
