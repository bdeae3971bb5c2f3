/** Spec §9: notification preview of 20 words, with an ellipsis when cut. */
export function previewWords(text: string, words = 20): string {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length <= words) return parts.join(' ');
  return `${parts.slice(0, words).join(' ')}...`;
}

/** Date as short month, day, year: 'Nov 21, 2026'. Invalid dates give ''. */
export function formatDate(value: string | number | Date, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(date);
}
