import { describe, expect, it } from 'vitest';
import { countryCodeOf, countryDisplayName, countryLabel, countryOptions } from './countryNames';

describe('country names (i18n-iso-countries codes, Intl.DisplayNames names)', () => {
  it('lists every ISO 3166-1 country once, named and sorted in the reader language', () => {
    const english = countryOptions(['en']);
    expect(english).toHaveLength(250);
    expect(new Set(english.map((option) => option.code)).size).toBe(250);
    expect(english).toContainEqual({ code: 'DE', label: 'Germany' });
    expect(english).toContainEqual({ code: 'US', label: 'United States' });
    const labels = english.map((option) => option.label);
    expect(labels).toEqual([...labels].sort(new Intl.Collator('en').compare));

    const german = countryOptions(['de']);
    expect(german).toContainEqual({ code: 'DE', label: 'Deutschland' });
    const at = (code: string) => german.findIndex((o) => o.code === code);
    expect([at('OM') < at('AT'), at('AT') < at('PK')]).toEqual([true, true]); // Österreich between Oman and Pakistan
  });

  it('reads the English names the API answers (and codes) back to codes', () => {
    expect(['Germany', 'United States', 'Russia', 'Republic of the Congo', 'de', 'DE'].map((v) => countryCodeOf(v))).toEqual([
      'DE',
      'US',
      'RU',
      'CG',
      'DE',
      'DE',
    ]);
    expect(countryCodeOf('Atlantis')).toBeUndefined();
  });

  it('shows an answered country in the reader language and anything else as it is', () => {
    expect(countryDisplayName('Germany', ['fr'])).toBe('Allemagne');
    expect(countryLabel('JP', ['ja'])).toBe('日本');
    expect(countryDisplayName('Atlantis', ['fr'])).toBe('Atlantis');
  });
});
