/** SVG path ("M x,y L x,y ...") of a price series scaled into width × height with padding; undefined under 2 points. */
export function chartPath(prices: number[], width: number, height: number, padding = 0): { line: string; firstX: number; lastX: number } | undefined {
  const values = prices.filter((p) => Number.isFinite(p));
  if (values.length < 2) return undefined;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const stepX = (width - 2 * padding) / (values.length - 1);
  const points = values.map((value, i) => {
    const x = padding + i * stepX;
    const y = max === min ? height / 2 : padding + (height - 2 * padding) * (1 - (value - min) / span);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  return { line: `M${points.join(' L')}`, firstX: padding, lastX: padding + (values.length - 1) * stepX };
}

/**
 * Where the drawn points start when that is later than the range would start: the server holds only what it stored
 * (on the offline snapshot, the snapshot's 7-day sparklines; live, what was fetched and recorded so far), so a longer
 * range can start late. Returns the first point's time when the points start later than the range would (by more than
 * a twentieth of it; always for "all", whose start is whatever is stored), else undefined.
 */
export function lateHistoryStart(points: number[][], spanMs: number | null): number | undefined {
  if (points.length < 2) return undefined;
  const first = points[0]![0];
  const last = points[points.length - 1]![0];
  if (spanMs === null) return first;
  return first - (last - spanMs) > spanMs / 20 ? first : undefined;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A span in words, rounded to the unit a person would use: "20 hours", "7 days", "5 months", "3 years". */
export function spanName(ms: number): string {
  const count = (value: number, unit: string) => {
    const n = Math.max(1, Math.round(value));
    return `${n} ${unit}${n === 1 ? '' : 's'}`;
  };
  if (ms < 36 * HOUR) return count(ms / HOUR, 'hour');
  if (ms < 60 * DAY) return count(ms / DAY, 'day');
  if (ms < 730 * DAY) return count(ms / (30.44 * DAY), 'month');
  return count(ms / (365.25 * DAY), 'year');
}
