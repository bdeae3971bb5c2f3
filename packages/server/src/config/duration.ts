const DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds of a duration such as 90, 15m, 12h or 1d; undefined when it is not one (or zero). */
export function parseDuration(value: string): number | undefined {
  const match = DURATION.exec(value.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] ?? 's'];
  return seconds > 0 ? seconds : undefined;
}
