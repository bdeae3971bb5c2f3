import { chartPath } from '../lib/chart';

/** 7-day price line from the stored sparkline (an SVG plot, no chart library). */
export function PriceChart({ prices, name }: { prices: number[]; name: string }) {
  const width = 600;
  const height = 220;
  const path = chartPath(prices, width, height, 8);
  if (!path) return <p className="muted">No price history yet.</p>;
  const min = Math.min(...prices);
  const max = Math.max(...prices);
  const rising = prices[prices.length - 1] >= prices[0];
  const color = rising ? '#047857' : '#c81e1e';
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className="chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${name} price over the last 7 days, from ${min.toFixed(2)} to ${max.toFixed(2)} US dollars`}
        data-testid="price-chart"
      >
        <defs>
          <linearGradient id="chart-fill" x1="0" x2="0" y1="0" y2="1">
            <stop offset="0%" stopColor={color} stopOpacity="0.25" />
            <stop offset="100%" stopColor={color} stopOpacity="0" />
          </linearGradient>
        </defs>
        <path d={`${path.line} L${path.lastX},${height} L${path.firstX},${height} Z`} fill="url(#chart-fill)" stroke="none" />
        <path d={path.line} fill="none" stroke={color} strokeWidth="2.5" strokeLinejoin="round" />
      </svg>
      <figcaption className="row-between muted">
        <span>7 days</span>
        <span>
          Low ${min.toFixed(2)} · High ${max.toFixed(2)}
        </span>
      </figcaption>
    </figure>
  );
}
