import { getAlpha2Code, getAlpha2Codes, getName, registerLocale } from 'i18n-iso-countries/index';
import english from 'i18n-iso-countries/langs/en.json';

// The package's plain entry (its Node entry would bring all ~80 locales): English only, to read the names the API
// answers. Names are shown in the browser's language by Intl.DisplayNames.
registerLocale(english);

export interface CountryOption {
  /** ISO 3166-1 alpha-2, what the API stores. */
  code: string;
  /** The name in the reader's language. */
  label: string;
}

const CODES = Object.keys(getAlpha2Codes());

function browserLocales(): readonly string[] {
  return typeof navigator === 'undefined' ? ['en'] : navigator.languages.length ? navigator.languages : [navigator.language];
}

const displayNamesByLocales = new Map<string, Intl.DisplayNames | undefined>();

function displayNames(locales: readonly string[]): Intl.DisplayNames | undefined {
  const key = locales.join(',');
  if (!displayNamesByLocales.has(key)) {
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames([...locales, 'en'], { type: 'region', fallback: 'none' });
    } catch {
      names = undefined; // a browser without Intl.DisplayNames: the package's English names
    }
    displayNamesByLocales.set(key, names);
  }
  return displayNamesByLocales.get(key);
}

/** The name of a country code in the reader's language (the package's English name where the browser has none). */
export function countryLabel(code: string, locales: readonly string[] = browserLocales()): string {
  return displayNames(locales)?.of(code) ?? getName(code, 'en') ?? code;
}

/** Every country of ISO 3166-1, named and sorted in the reader's language. */
export function countryOptions(locales: readonly string[] = browserLocales()): CountryOption[] {
  const names = displayNames(locales);
  const collator = new Intl.Collator([...locales, 'en']);
  return CODES.map((code) => ({ code, label: names?.of(code) ?? getName(code, 'en') ?? code })).sort((a, b) => collator.compare(a.label, b.label));
}

/** The code of a country as the API answers it (its English name) or a code; undefined for anything else. */
export function countryCodeOf(value: string): string | undefined {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text) && CODES.includes(text.toUpperCase())) return text.toUpperCase();
  return getAlpha2Code(text, 'en');
}

/** A country the API answered, named in the reader's language; a value that is not a country is shown as it is. */
export function countryDisplayName(value: string, locales: readonly string[] = browserLocales()): string {
  const code = countryCodeOf(value);
  return code ? countryLabel(code, locales) : value;
}
