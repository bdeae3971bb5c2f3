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
