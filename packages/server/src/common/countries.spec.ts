import { describe, expect, it } from 'vitest';
import { InvalidInputError } from './errors';
import { countryCode, countryName, countryNames, requireCountryCode, UNKNOWN_COUNTRY } from './countries';

describe('countries (ISO 3166-1 from i18n-iso-countries)', () => {
  it('takes a code in any case or an English name in any case, with spaces around', () => {
    expect(['DE', 'de', 'Germany', ' germany ', 'GERMANY'].map(countryCode)).toEqual(['DE', 'DE', 'DE', 'DE', 'DE']);
    expect(['United States', 'United States of America', 'USA', 'us'].map(countryCode)).toEqual(['US', 'US', 'US', 'US']);
    expect(['Côte d’Ivoire', "Cote d'Ivoire", 'Ivory Coast'].map(countryCode)).toEqual(['CI', 'CI', 'CI']);
    // Names of the earlier sign-up list that the package spells otherwise.
    expect(['Brunei', 'Cabo Verde', 'Laos', 'Micronesia', 'Moldova', 'Syria', 'Vatican City'].map(countryCode)).toEqual([
      'BN',
      'CV',
      'LA',
      'FM',
      'MD',
      'SY',
      'VA',
    ]);
  });

  it('refuses what is not a country', () => {
    for (const value of ['Atlantis', 'XX', 'Germany!', 'D', '', 'Europe']) expect(countryCode(value)).toBeUndefined();
    expect(() => requireCountryCode('Atlantis')).toThrow(InvalidInputError);
    expect(() => requireCountryCode('Atlantis')).toThrow(UNKNOWN_COUNTRY);
  });

  it('answers a short English name that leads back to the same code, for every code', () => {
    expect(countryNames().size).toBe(250);
    for (const [code, name] of countryNames()) expect([code, countryCode(name)]).toEqual([code, code]);
    expect(['US', 'RU', 'CN', 'GB', 'CG', 'CD'].map(countryName)).toEqual([
      'United States',
      'Russia',
      'China',
      'United Kingdom',
      'Republic of the Congo',
      'Democratic Republic of the Congo',
    ]);
  });

  it('answers a stored value that is not a code as it is', () => {
    expect(countryName('Atlantis')).toBe('Atlantis');
    expect(countryName('-')).toBe('-');
  });
});
