import { getAlpha2Codes, getNames, registerLocale } from 'i18n-iso-countries/index';
import english from 'i18n-iso-countries/langs/en.json';
import { InvalidInputError } from './errors';

// The package's plain entry: its Node entry would load all of its ~80 locales; the server only answers in English.
registerLocale(english);

export const UNKNOWN_COUNTRY = 'Select a country from the list.';

/**
 * Names of the earlier hand-written sign-up list that the package spells otherwise ("Brunei Darussalam", …): clients
 * built on that list keep working, and migration 0008 maps stored rows with the same table.
 */
const EARLIER_LIST_NAMES: Readonly<Record<string, string>> = {
  Brunei: 'BN',
  'Cabo Verde': 'CV',
  Laos: 'LA',
  Micronesia: 'FM',
  Moldova: 'MD',
  Syria: 'SY',
  'Vatican City': 'VA',
};

const namesByCode: Record<string, string[]> = getNames('en', { select: 'all' });
const codes = new Set(Object.keys(getAlpha2Codes()));

/** Lower-case English name (every spelling the package knows, and the earlier list's) → alpha-2 code. */
const codeByName = new Map<string, string>();
for (const [code, names] of Object.entries(namesByCode)) {
  for (const name of names) {
    const key = nameKey(name);
    // "Congo" names two countries: like the package's own lookup, the first listed (CG) keeps it.
    if (!codeByName.has(key)) codeByName.set(key, code);
  }
}
for (const [name, code] of Object.entries(EARLIER_LIST_NAMES)) codeByName.set(nameKey(name), code);

/**
 * The English name answered for each code: the package's shortest name that is part of its first one and names no
 * other country ("United States" of "United States of America", "Russia" of "Russian Federation"), else the first.
 */
const nameByCode = new Map<string, string>();
for (const [code, names] of Object.entries(namesByCode)) {
  const [full] = names;
  const short = names.filter((name) => full.includes(name) && !sharedName(name, code));
  nameByCode.set(code, short.sort((a, b) => a.length - b.length)[0] ?? full);
}

function nameKey(name: string): string {
  return name.trim().replace(/[’‘]/g, "'").toLowerCase();
}

function sharedName(name: string, code: string): boolean {
  return Object.entries(namesByCode).some(([other, names]) => other !== code && names.some((n) => nameKey(n) === nameKey(name)));
}

/** The ISO 3166-1 alpha-2 code of an alpha-2 code (any case) or an English country name; undefined when neither. */
export function countryCode(value: string): string | undefined {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text) && codes.has(text.toUpperCase())) return text.toUpperCase();
  return codeByName.get(nameKey(text));
}

/** The code to store for a country sent by a client; a 400 for anything that is not a country. */
export function requireCountryCode(value: string): string {
  const code = countryCode(value);
  if (!code) throw new InvalidInputError(UNKNOWN_COUNTRY, { country: [UNKNOWN_COUNTRY] });
  return code;
}

/**
 * The English name of a stored country. A value that is not a code (a row the migration could not map, the "-" of
 * admin accounts) is answered as stored.
 */
export function countryName(stored: string): string {
  return nameByCode.get(stored) ?? stored;
}

/** Every alpha-2 code with the English name answered for it. */
export function countryNames(): ReadonlyMap<string, string> {
  return nameByCode;
}

/** Every English spelling accepted (lower case, straight apostrophes) with its code: migration 0008 maps the same. */
export function countrySpellings(): ReadonlyMap<string, string> {
  return codeByName;
}
