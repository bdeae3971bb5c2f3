import { InvalidInputError } from './errors';

export const CURSOR_INVALID = 'The page cursor is not valid.';
export const DEFAULT_PAGE_LIMIT = 50;

/** `?limit=` as validated by the contract (1..100), or the default. */
export function pageLimit(raw: string | undefined): number {
  return raw ? Number(raw) : DEFAULT_PAGE_LIMIT;
}

/** Opaque page cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** Decodes a cursor and checks each part against its pattern; anything else is a 400 with a message. */
export function decodeCursor(cursor: string, patterns: RegExp[]): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInputError(CURSOR_INVALID);
  }
  if (!Array.isArray(parts) || parts.length !== patterns.length) throw new InvalidInputError(CURSOR_INVALID);
  return parts.map((part, i) => {
    if (typeof part !== 'string' || !patterns[i].test(part)) throw new InvalidInputError(CURSOR_INVALID);
    return part;
  });
}

/** PostgreSQL's text form of a timestamptz (`2026-11-21 23:01:13.123456+00`). */
export const PG_TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
