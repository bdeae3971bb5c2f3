import Decimal from 'decimal.js';
import type { CoinUpsert } from './coins.repository';

/** One row of CoinGecko's /coins/markets (the fields we use). The offline snapshot has the same shape. */
export interface ProviderCoin {
  id: unknown;
  symbol: unknown;
  name: unknown;
  image?: unknown;
  current_price: unknown;
  market_cap?: unknown;
  market_cap_rank?: unknown;
  high_24h?: unknown;
  low_24h?: unknown;
  price_change_percentage_24h?: unknown;
  last_updated?: unknown;
  sparkline_in_7d?: { price?: unknown } | null;
}

export const GENERIC_ICON = 'generic.png';
const COIN_ID = /^[a-z0-9][a-z0-9._+-]{0,99}$/;
const ICON_FILE = /^[a-z0-9][a-z0-9._-]{0,99}\.png$/;
const MAX_PRICE = new Decimal('1e19'); // numeric(38,18) holds < 1e20
const MAX_MARKET_CAP = new Decimal('1e30');
const MAX_PERCENT = new Decimal('1e11'); // numeric(20,8) holds < 1e12
const MAX_SPARKLINE = 400;

export interface ParsedMarket {
  rows: CoinUpsert[];
  skipped: number;
}

/**
 * Validates the provider's answer row by row: malformed rows are skipped (counted), never stored; prices must be
 * finite and > 0; numbers become exact decimal strings. Duplicate ids keep the first row.
 */
export function parseMarketRows(data: unknown, source: 'live' | 'snapshot', now = new Date()): ParsedMarket {
  if (!Array.isArray(data)) return { rows: [], skipped: 0 };
  const rows: CoinUpsert[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const item of data) {
    const row = parseRow(item as ProviderCoin, source, now);
    if (!row || seen.has(row.id)) {
      skipped += 1;
      continue;
    }
    seen.add(row.id);
    rows.push(row);
  }
  return { rows, skipped };
}

function parseRow(item: ProviderCoin, source: 'live' | 'snapshot', now: Date): CoinUpsert | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const id = typeof item.id === 'string' ? item.id.trim() : '';
  if (!COIN_ID.test(id)) return undefined;
  const symbol = cleanText(item.symbol, 30);
  const name = cleanText(item.name, 100);
  if (!symbol || !name) return undefined;
  const price = positiveDecimal(item.current_price, MAX_PRICE, 18);
  if (!price) return undefined;
  const rank = item.market_cap_rank;
  return {
    id,
    symbol: symbol.toLowerCase(),
    name,
    image: cleanImage(item.image),
    currentPrice: price,
    marketCap: nonNegativeDecimal(item.market_cap, MAX_MARKET_CAP, 2),
    marketCapRank: typeof rank === 'number' && Number.isInteger(rank) && rank >= 1 && rank <= 1_000_000 ? rank : null,
    low24h: positiveDecimal(item.low_24h, MAX_PRICE, 18),
    high24h: positiveDecimal(item.high_24h, MAX_PRICE, 18),
    priceChangePercentage24h: signedDecimal(item.price_change_percentage_24h, MAX_PERCENT, 8),
    sparkline7d: sparkline(item.sparkline_in_7d),
    lastUpdated: timestamp(item.last_updated, now),
    source,
  };
}

function cleanText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // eslint-disable-next-line no-control-regex
  if (!text || text.length > max || /[\u0000-\u001f\u007f]/.test(text)) return undefined;
  return text;
}

/** A full https URL (provider images) or a bundled icon file name; anything else gets the generic icon. */
function cleanImage(value: unknown): string {
  if (typeof value !== 'string' || value.length > 500) return GENERIC_ICON;
  if (ICON_FILE.test(value)) return value;
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' && !url.username && !url.password) return url.toString();
  } catch {
    /* not a URL */
  }
  return GENERIC_ICON;
}

function toDecimal(value: unknown): Decimal | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  if (typeof value === 'string' && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim())) return undefined;
  try {
    const decimal = new Decimal(value);
    return decimal.isFinite() ? decimal : undefined;
  } catch {
    return undefined;
  }
}

function positiveDecimal(value: unknown, max: Decimal, places: number): string | null {
  const decimal = toDecimal(value)?.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  return decimal && decimal.gt(0) && decimal.lt(max) ? decimal.toFixed() : null;
}

function nonNegativeDecimal(value: unknown, max: Decimal, places: number): string | null {
  const decimal = toDecimal(value)?.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  return decimal && decimal.gte(0) && decimal.lt(max) ? decimal.toFixed() : null;
}

function signedDecimal(value: unknown, maxAbs: Decimal, places: number): string | null {
  const decimal = toDecimal(value)?.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  return decimal && decimal.abs().lt(maxAbs) ? decimal.toFixed() : null;
}

function sparkline(value: ProviderCoin['sparkline_in_7d']): number[] {
  const prices = value && typeof value === 'object' ? value.price : undefined;
  if (!Array.isArray(prices)) return [];
  return prices.filter((p): p is number => typeof p === 'number' && Number.isFinite(p) && p > 0 && p < 1e19).slice(-MAX_SPARKLINE);
}

function timestamp(value: unknown, now: Date): Date {
  if (typeof value !== 'string') return now;
  const time = Date.parse(value);
  // Unparseable, or claiming to be from the future: the time we received it.
  if (!Number.isFinite(time) || time > now.getTime() + 5 * 60_000) return now;
  return new Date(time);
}

/** Provider headers: JSON, our user agent, and the API key under the header its plan expects. */
function providerHeaders(baseUrl: string, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'coinpurse/0.1' };
  if (apiKey) headers[/pro-api\.coingecko\.com/i.test(baseUrl) ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key'] = apiKey;
  return headers;
}

/** `/coins/{id}/market_chart`: USD prices over `days` (1 → 5-minute points, 2–90 → hourly, more → daily). */
export function marketChartRequest(
  baseUrl: string,
  apiKey: string | undefined,
  coinId: string,
  days: string,
): { url: string; headers: Record<string, string> } {
  return {
    url: `${baseUrl}/coins/${encodeURIComponent(coinId)}/market_chart?vs_currency=usd&days=${encodeURIComponent(days)}`,
    headers: providerHeaders(baseUrl, apiKey),
  };
}

const EARLIEST_PRICE_MS = Date.UTC(2009, 0, 1);
const MAX_CHART_POINTS = 20_000;

/** market_chart's `prices` as [unixMs, price] pairs: finite, positive, in time order, not from the future. */
export function parseMarketChart(data: unknown, now = Date.now()): Array<[number, number]> {
  const prices = data && typeof data === 'object' ? (data as { prices?: unknown }).prices : undefined;
  if (!Array.isArray(prices)) return [];
  const points: Array<[number, number]> = [];
  for (const entry of prices.slice(-MAX_CHART_POINTS)) {
    if (!Array.isArray(entry) || entry.length < 2) continue;
    const [at, price] = entry as [unknown, unknown];
    if (typeof at !== 'number' || !Number.isInteger(at) || at < EARLIEST_PRICE_MS || at > now + 5 * 60_000) continue;
    if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0 || price >= 1e19) continue;
    points.push([at, price]);
  }
  return points.sort((a, b) => a[0] - b[0]);
}

/** The markets URL and headers for the configured base URL and API key. */
export function marketsRequest(baseUrl: string, apiKey: string | undefined, ids?: string[]): { url: string; headers: Record<string, string> } {
  const base = `${baseUrl}/coins/markets?vs_currency=usd&order=market_cap_desc&per_page=250&page=1&sparkline=true&price_change_percentage=24h`;
  // `ids`: supported tokens outside the top 250, priced by a second call so they never go stale.
  const url = ids?.length ? `${base}&ids=${ids.map(encodeURIComponent).join(',')}` : base;
  return { url, headers: providerHeaders(baseUrl, apiKey) };
}

/** Retry-After: delay-seconds or an HTTP date; undefined when absent or unreadable. Capped at 6 hours. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  let seconds: number;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else {
    const at = Date.parse(text);
    if (!Number.isFinite(at)) return undefined;
    seconds = Math.ceil((at - now) / 1000);
  }
  return Math.min(Math.max(seconds, 0), 6 * 3600);
}

export type ProviderFetchResult = { ok: true; data: unknown } | { ok: false; error: string; status?: number; retryAfterSeconds?: number };

const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * One GET to the provider. Never throws: unreachable, HTTP errors (with Retry-After on 429 and 5xx), oversized or
 * non-JSON answers come back as `{ ok: false, error }` with a message for the logs and the market status.
 */
export async function fetchProviderJson(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<ProviderFetchResult> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    return { ok: false, error: `The price provider could not be reached (${networkReason(error)}).` };
  }
  try {
    if (!response.ok) {
      const retryAfterSeconds = response.status === 429 || response.status >= 500 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, error: `The price provider answered HTTP ${response.status}.`, status: response.status, retryAfterSeconds };
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_BODY_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, error: 'The price provider answer is too large.' };
    }
    const text = await response.text();
    if (text.length > MAX_BODY_BYTES) return { ok: false, error: 'The price provider answer is too large.' };
    try {
      return { ok: true, data: JSON.parse(text) };
    } catch {
      return { ok: false, error: 'The price provider answer is not valid JSON.' };
    }
  } catch (error) {
    return { ok: false, error: `The price provider answer could not be read (${(error as Error)?.name ?? 'error'}).` };
  }
}

/** A short reason for a failed fetch: the socket error code when there is one (ECONNREFUSED, ENOTFOUND, ...). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; name?: unknown; message?: unknown; errors?: Array<{ code?: unknown }> } })?.cause;
  const code = cause?.code ?? cause?.errors?.find((e) => e?.code)?.code;
  if (typeof code === 'string') return code;
  if ((error as Error)?.name === 'TimeoutError' || cause?.name === 'TimeoutError') return 'timed out';
  if (typeof cause?.message === 'string' && cause.message) return cause.message.slice(0, 100);
  return (error as Error)?.name ?? 'error';
}
