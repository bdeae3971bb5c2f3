import { useEffect, useMemo, useRef, useState } from 'react';
import type { IChartApi, ISeriesApi, MouseEventParams, Time, UTCTimestamp } from 'lightweight-charts';
import { useGetMarketStatusQuery, useGetPriceHistoryQuery, type PriceHistoryRange } from '../../../api/endpoints';
import { changeDirection } from '../../../lib/money';
import { lateHistoryStart, spanName } from '../lib/chart';
import { useEffectiveTheme } from '../../../lib/theme';
import { formatChange, formatDate, formatDateTime, formatLocale, formatPrice, formatUsd } from '../../../lib/format';
import './PriceChart.css';

const DAY = 86_400_000;
const RANGES: Array<{ range: PriceHistoryRange; label: string; name: string; spanMs: number | null }> = [
  { range: '1d', label: '1D', name: '1 day', spanMs: DAY },
  { range: '7d', label: '1W', name: '1 week', spanMs: 7 * DAY },
  { range: '30d', label: '1M', name: '1 month', spanMs: 30 * DAY },
  { range: '1y', label: '1Y', name: '1 year', spanMs: 365 * DAY },
  { range: 'all', label: 'All', name: 'all time', spanMs: null },
];

/** Decimals for the price axis: cents from $1, more below so sub-cent coins do not read $0.00. */
export function axisDecimals(price: number): number {
  if (!(price > 0) || price >= 1) return 2;
  return Math.min(12, Math.ceil(-Math.log10(price)) + 3);
}

/**
 * The coin's price over a chosen range: an area chart (TradingView lightweight-charts, loaded only when a chart is
 * shown), a crosshair with time and price, and the change over the range in green or red.
 */
export function PriceChart({ coinId, name }: { coinId: string; name: string }) {
  const [range, setRange] = useState<PriceHistoryRange>('7d');
  const { data, isFetching, error } = useGetPriceHistoryQuery({ coinId, range });
  const { data: status } = useGetMarketStatusQuery();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ chart: IChartApi; series: ISeriesApi<'Area'> } | null>(null);
  const [hover, setHover] = useState<{ price: number; time: number } | null>(null);
  const [ready, setReady] = useState(false);
  const theme = useEffectiveTheme();
  const points = useMemo(() => (data?.coinId === coinId ? data.points : []), [data, coinId]);

  useEffect(() => {
    if (error) console.error('Could not load the price history', error);
  }, [error]);

  // The library is created once per mounted chart and removed with it.
  useEffect(() => {
    let disposed = false;
    let created: IChartApi | undefined;
    void import('lightweight-charts').then(({ createChart, AreaSeries, CrosshairMode }) => {
      if (disposed || !container.current) return;
      created = createChart(container.current, {
        autoSize: true,
        layout: { background: { color: 'transparent' }, attributionLogo: false, fontFamily: 'system-ui, sans-serif' },
        grid: { vertLines: { visible: false } },
        rightPriceScale: { borderVisible: false },
        timeScale: { borderVisible: false },
        crosshair: { mode: CrosshairMode.Magnet },
        localization: {
          locale: formatLocale(),
          priceFormatter: (price: number) => formatPrice(price),
          timeFormatter: (time: Time) => formatDateTime((time as number) * 1000),
        },
        handleScroll: false,
        handleScale: false,
      });
      const series = created.addSeries(AreaSeries, { lineWidth: 2, priceLineVisible: false });
      created.subscribeCrosshairMove((param: MouseEventParams) => {
        const value = param.seriesData.get(series) as { value?: number } | undefined;
        setHover(param.time !== undefined && value?.value !== undefined ? { price: value.value, time: (param.time as number) * 1000 } : null);
      });
      chart.current = { chart: created, series };
      setReady(true);
    });
    return () => {
      disposed = true;
      created?.remove();
      chart.current = null;
    };
  }, []);

  const first = points[0]?.[1];
  const last = points[points.length - 1]?.[1];
  const change = first && last ? ((last - first) / first) * 100 : 0;
  const direction = changeDirection(change);

  // The palette is read from the page's CSS variables, again whenever the theme changes (the canvas keeps its colours).
  useEffect(() => {
    const current = chart.current;
    if (!ready || !current || !container.current) return;
    const styles = getComputedStyle(container.current);
    current.chart.applyOptions({
      layout: { textColor: styles.getPropertyValue('--muted').trim() || '#526078' },
      grid: { horzLines: { color: styles.getPropertyValue('--border').trim() || '#dde3ec' } },
    });
  }, [ready, theme]);

  useEffect(() => {
    const current = chart.current;
    if (!ready || !current || !container.current) return;
    const styles = getComputedStyle(container.current);
    const color = styles.getPropertyValue(direction === 'down' ? '--down' : '--up').trim() || (direction === 'down' ? '#c81e1e' : '#047857');
    const decimals = axisDecimals(Math.min(...points.map((p) => p[1])));
    current.series.applyOptions({
      lineColor: color,
      topColor: `${color}55`,
      bottomColor: `${color}00`,
      priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals },
    });
    // Seconds, strictly increasing (the library's rule).
    const seen = new Set<number>();
    current.series.setData(
      points.map(([at, value]) => ({ time: Math.floor(at / 1000) as UTCTimestamp, value })).filter((point) => !seen.has(point.time) && seen.add(point.time)),
    );
    current.chart.applyOptions({ timeScale: { timeVisible: range === '1d' || range === '7d', secondsVisible: false } });
    current.chart.timeScale().fitContent();
  }, [ready, points, direction, range, theme]);

  // What is drawn: the range of the points on screen (while the next range loads, the previous one's).
  const drawnRange = data?.coinId === coinId ? data.range : range;
  const { name: rangeName, spanMs } = RANGES.find((r) => r.range === drawnRange)!;
  // History shorter than the range: said in a note, and the change is labelled with the span actually drawn.
  const lateStart = lateHistoryStart(points, spanMs);
  const drawnSpan = points.length > 1 ? points[points.length - 1]![0] - points[0]![0] : 0;
  const changeSpanName = lateStart === undefined ? rangeName : spanName(drawnSpan);
  const offline = status?.source === 'snapshot';
  const low = points.length ? Math.min(...points.map((p) => p[1])) : 0;
  const high = points.length ? Math.max(...points.map((p) => p[1])) : 0;

  return (
    <figure className="price-chart" style={{ margin: 0 }}>
      <div className="row-between chart-head">
        <div role="group" aria-label="Chart range" className="range-buttons">
          {RANGES.map((r) => (
            <button key={r.range} type="button" aria-pressed={r.range === range} aria-label={r.label} title={r.name} onClick={() => setRange(r.range)}>
              {r.label}
            </button>
          ))}
        </div>
        {points.length > 1 && (
          <span className={direction} data-testid="chart-change">
            {formatChange(change)} ({change >= 0 ? '+' : '-'}
            {formatUsd(Math.abs(last! - first!))}) <span className="muted">{changeSpanName}</span>
          </span>
        )}
      </div>
      <p className="chart-crosshair muted" data-testid="chart-crosshair" aria-live="polite">
        {hover ? `${formatPrice(hover.price)} · ${formatDateTime(hover.time)}` : '\u00a0'}
      </p>
      <div
        ref={container}
        className="chart"
        role="img"
        aria-label={
          points.length > 1
            ? `${name} price over ${changeSpanName}, from ${formatPrice(low)} to ${formatPrice(high)}`
            : `${name} price chart, no data for ${rangeName}`
        }
        aria-busy={isFetching}
        data-testid="price-chart"
        data-range={drawnRange}
        data-points={points.length}
        data-first={points[0]?.[0] ?? ''}
        data-last={points[points.length - 1]?.[0] ?? ''}
      />
      {lateStart !== undefined &&
        (offline ? (
          <p className="muted chart-note" data-testid="chart-offline-note">
            History before {formatDate(lateStart)} is not available offline.
          </p>
        ) : (
          <p className="muted chart-note" data-testid="chart-history-note">
            Price history here starts {formatDate(lateStart)}: the chart shows {spanName(drawnSpan)}.
          </p>
        ))}
      <figcaption className="row-between muted">
        <span>{points.length > 1 ? `Low ${formatPrice(low)} · High ${formatPrice(high)}` : isFetching ? 'Loading prices…' : 'No price history yet.'}</span>
        <a href="https://www.tradingview.com/" target="_blank" rel="noreferrer" className="chart-credit">
          Chart by TradingView
        </a>
      </figcaption>
    </figure>
  );
}
