import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { type SwapQuoteDto, useSwapQuoteMutation, useSwapTokensMutation } from '../../../api/generated/walletApi.generated';
import { parseAmount } from '../../../lib/money';
import { coinDecimals, formatCoinAmount, formatRate, formatUsd } from '../../../lib/format';
import { swapPreview, swapRate } from '../lib/swap';
import type { WalletRow } from '../lib/rows';
import { PanelHeader } from './PanelHeader';

export default function SwapPanel({ rows, initialFrom, onClose }: { rows: WalletRow[]; initialFrom?: string; onClose: () => void }) {
  const [fromId, setFromId] = useState(initialFrom ?? rows[0]?.token.id ?? '');
  const [toId, setToId] = useState(rows.find((r) => r.token.id !== (initialFrom ?? rows[0]?.token.id))?.token.id ?? '');
  const [amountText, setAmountText] = useState('');
  const [swap, { isLoading }] = useSwapTokensMutation();
  const [askQuote, { isLoading: quoting }] = useSwapQuoteMutation();
  const [quote, setQuote] = useState<SwapQuoteDto | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const busy = useRef(false);
  const [executed, setExecuted] = useState<string | null>(null);
  const from = rows.find((r) => r.token.id === fromId);
  const to = rows.find((r) => r.token.id === toId);
  const preview = swapPreview(parseAmount(amountText), from, to);
  const disabled = preview.fromAmount <= 0 || Boolean(preview.error) || !from || !to || isLoading;
  const request = from && to && !disabled ? `${preview.usdPayload}|${from.token.id}|${to.token.id}` : '';
  const secondsLeft = quote ? Math.max(0, Math.ceil((Date.parse(quote.expiresAt) - now) / 1000)) : 0;

  // A quote of what is on screen, asked for again when the request changes or the quote expires (the house's spread
  // and fee in it, or why the house cannot sell the token now).
  useEffect(() => {
    setQuote(null);
    setQuoteError(null);
    if (!request) return;
    const [amount, fromToken, toToken] = request.split('|');
    let live = true;
    const timer = setTimeout(() => {
      askQuote({ swapQuoteRequestDto: { amount, from: fromToken, to: toToken } })
        .unwrap()
        .then((answer) => live && setQuote(answer))
        .catch((error: { data?: { error?: string } }) => live && setQuoteError(error?.data?.error ?? 'No quote right now: try again.'));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [request, askQuote, executed]);

  useEffect(() => {
    if (!quote) return;
    const tick = setInterval(() => {
      setNow(Date.now());
      if (Date.parse(quote.expiresAt) <= Date.now()) {
        const [amount, fromToken, toToken] = request.split('|');
        askQuote({ swapQuoteRequestDto: { amount, from: fromToken, to: toToken } })
          .unwrap()
          .then(setQuote)
          .catch((error: { data?: { error?: string } }) => {
            setQuote(null);
            setQuoteError(error?.data?.error ?? 'No quote right now: try again.');
          });
        clearInterval(tick);
      }
    }, 500);
    return () => clearInterval(tick);
  }, [quote, request, askQuote]);

  function reverse() {
    setFromId(toId);
    setToId(fromId);
    setAmountText(preview.output > 0 ? String(Number(preview.output.toFixed(to ? coinDecimalsOf(to) : 8))) : '');
  }

  async function confirm() {
    if (busy.current || disabled || !from || !to) return;
    busy.current = true;
    try {
      const result = await swap({
        'Idempotency-Key': crypto.randomUUID(),
        swapDto: { amount: preview.usdPayload, from: from.token.id, to: to.token.id, ...(quote && secondsLeft > 0 ? { quoteId: quote.quoteId } : {}) },
      }).unwrap();
      toast.success('Swap successful');
      setExecuted(
        `Swapped ${formatCoinAmount(result.from.coinAmount, result.from.token)} ${result.from.symbol.toUpperCase()} for ${formatCoinAmount(result.to.coinAmount, result.to.token)} ${result.to.symbol.toUpperCase()} (${formatUsd(result.amount)})`,
      );
      setAmountText('0');
    } catch (error) {
      console.error('Swap failed', error);
    } finally {
      busy.current = false;
    }
  }

  return (
    <section className="panel" aria-label="Swap">
      <PanelHeader title="Swap" onBack={onClose} />
      <div className="field">
        <label htmlFor="swap-from">From</label>
        <select id="swap-from" value={fromId} onChange={(e) => setFromId(e.target.value)}>
          {rows.map((r) => (
            <option key={r.token.id} value={r.token.id} disabled={r.token.id === toId}>
              {r.token.name} ({r.token.symbol.toUpperCase()}) · {formatCoinAmount(r.amount, r.token.id)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <div className="row-between">
          <label htmlFor="swap-amount">Amount ({from?.token.symbol.toUpperCase()})</label>
          <button
            type="button"
            className="link-button"
            disabled={!from || from.amount <= 0}
            onClick={() => {
              setExecuted(null);
              if (from) setAmountText(from.amount.toFixed(coinDecimals(from.token.id)));
            }}
          >
            Max
          </button>
        </div>
        <input
          id="swap-amount"
          type="number"
          inputMode="decimal"
          min="0"
          step="any"
          value={amountText}
          onChange={(e) => {
            setExecuted(null);
            setAmountText(e.target.value);
          }}
          aria-invalid={Boolean(preview.error)}
          aria-describedby="swap-usd swap-error"
        />
        <small id="swap-usd" className="hint" data-testid="swap-usd">
          {formatUsd(preview.usd)}
        </small>
        <small id="swap-error" className="error-text" role="alert">
          {preview.error ?? ''}
        </small>
      </div>
      <div className="swap-reverse">
        <button type="button" className="icon-button" onClick={reverse} aria-label="Reverse tokens">
          <span aria-hidden="true">⇅</span>
        </button>
      </div>
      <div className="field">
        <label htmlFor="swap-to">To</label>
        <select id="swap-to" value={toId} onChange={(e) => setToId(e.target.value)}>
          {rows.map((r) => (
            <option key={r.token.id} value={r.token.id} disabled={r.token.id === fromId}>
              {r.token.name} ({r.token.symbol.toUpperCase()})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="swap-output">You receive ({to?.token.symbol.toUpperCase()})</label>
        <input
          id="swap-output"
          readOnly
          value={to ? formatCoinAmount(quote ? Number(quote.to.coinAmount) : preview.output, to.token.id) : ''}
          aria-describedby="swap-output-usd"
        />
        <small id="swap-output-usd" className="hint" data-testid="swap-output-usd">
          {formatUsd(to ? (quote ? Number(quote.to.coinAmount) : preview.output) * to.price : 0)}
        </small>
      </div>
      {from && to && (
        <p className="muted swap-rate" data-testid="swap-rate">
          {`1 ${from.token.symbol.toUpperCase()} = ${formatRate(quote ? Number(quote.rate) : swapRate(from, to))} ${to.token.symbol.toUpperCase()}`}
        </p>
      )}
      {quote && to && (
        <p className="muted swap-quote" data-testid="swap-quote" aria-live="polite">
          {`Fee ${formatUsd(Number(quote.fee.usd))}${quote.spreadBps ? ` · spread ${quote.spreadBps / 100} % in the rate` : ''} · you get ${formatCoinAmount(quote.to.coinAmount, to.token.id)} ${to.token.symbol.toUpperCase()}`}
          <br />
          {secondsLeft > 0 ? `Quote holds for ${secondsLeft} s` : 'Getting a new quote…'}
        </p>
      )}
      {!quote && quoting && <p className="muted swap-quote">Getting a quote…</p>}
      {quoteError && (
        <p className="error-text" role="alert" data-testid="swap-quote-error">
          {quoteError}
        </p>
      )}
      <button
        type="button"
        className="button block"
        onClick={confirm}
        disabled={disabled || Boolean(quoteError)}
        aria-disabled={disabled || Boolean(quoteError)}
      >
        {isLoading ? 'Swapping...' : 'Confirm'}
      </button>
      {executed && (
        <p className="center muted" role="status" data-testid="swap-executed">
          {executed}
        </p>
      )}
    </section>
  );
}

function coinDecimalsOf(row: WalletRow): number {
  return coinDecimals(row.token.id);
}
