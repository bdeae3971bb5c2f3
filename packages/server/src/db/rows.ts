/** The rows of a raw `execute()` result: node-postgres and PGlite both return `{ rows }`; an array is taken as is. */
export function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  return ((result as { rows?: unknown[] })?.rows ?? []) as unknown[];
}
