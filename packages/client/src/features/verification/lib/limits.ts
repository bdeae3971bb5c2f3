import { formatUsd } from '../../../lib/format';

/** A limit in words: "No limit", "Not allowed" (0) or the amount in USD. */
export function limitText(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'No limit';
  if (Number(value) === 0) return 'Not allowed';
  return formatUsd(value);
}

export const DOCUMENT_LABELS = {
  id_front: 'Identity document, front',
  id_back: 'Identity document, back',
  selfie: 'Selfie',
  proof_of_address: 'Proof of address',
} as const;

export const STATUS_LABELS = { in_review: 'In review', approved: 'Approved', rejected: 'Rejected' } as const;
