import { useState } from 'react';
import { coinImageUrl } from '../lib/images';
import './CoinImage.css';

/**
 * A coin's image that never shows the browser's broken-image glyph: when the provider's URL fails (CDN down or
 * blocked) the bundled icon for the symbol is tried, then a letter badge is drawn.
 */
export function CoinImage({ image, symbol, size = 40, className }: { image: string; symbol: string; size?: number; className?: string }) {
  const sources = [coinImageUrl(image), `/images/${symbol.toLowerCase()}.png`].filter((src, i, all) => src && all.indexOf(src) === i);
  const [attempt, setAttempt] = useState(0);
  const [failedFor, setFailedFor] = useState(image);
  // A different coin in the same place starts over.
  if (failedFor !== image) {
    setFailedFor(image);
    setAttempt(0);
  }
  const src = sources[attempt];
  if (!src)
    return (
      <span
        className={`coin-badge ${className ?? ''}`}
        style={{ width: size, height: size, fontSize: size * 0.45 }}
        aria-hidden="true"
        data-testid="coin-badge"
      >
        {symbol.charAt(0).toUpperCase() || '?'}
      </span>
    );
  return <img className={className} src={src} alt="" width={size} height={size} loading="lazy" onError={() => setAttempt((n) => n + 1)} />;
}
