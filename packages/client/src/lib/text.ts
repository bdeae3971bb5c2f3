/** Spec §9: notification preview of 20 words, with an ellipsis when cut. */
export function previewWords(text: string, words = 20): string {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length <= words) return parts.join(' ');
  return `${parts.slice(0, words).join(' ')}...`;
}

// Dates share the one formatter's style (Nov 21, 2026).
export { formatDate } from './format';
