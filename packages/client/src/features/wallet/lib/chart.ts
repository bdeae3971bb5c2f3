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
 * On the offline snapshot the server holds only what is stored here (the snapshot's 7-day sparklines and any points
 * recorded since), so a longer range starts late. Returns the first point's time when the points start later than
 * the range would (by more than a twentieth of it; always for "all"), else undefined.
 */
export function offlineHistoryStart(points: number[][], spanMs: number | null): number | undefined {
  if (points.length < 2) return undefined;
  const first = points[0]![0];
  const last = points[points.length - 1]![0];
  if (spanMs === null) return first;
  return first - (last - spanMs) > spanMs / 20 ? first : undefined;
}
