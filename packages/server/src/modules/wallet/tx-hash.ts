/**
 * Chain transaction ids of settled withdrawals, checked per network format where one is known. The network registry
 * (issue 8) can later supply these formats; callers only use `validateTxHash`.
 */
export type TxHashCheck = { ok: true; hash: string } | { ok: false; message: string };

const HEX64 = /^(?:0x)?([0-9a-f]{64})$/i;
/** EVM chains: 0x + 64 hex (the 0x is added when left out). */
const EVM = new Set(['ethereum', 'binancecoin', 'matic-network', 'polygon', 'avalanche-2', 'arbitrum', 'optimism', 'base', 'ethereum-classic']);
/** Bitcoin-like and TRON: 64 hex, no prefix (tether's network here is TRON). */
const PLAIN_HEX = new Set(['bitcoin', 'litecoin', 'dogecoin', 'bitcoin-cash', 'tron', 'tether', 'dash', 'zcash']);
/** Anything else: a conservative text id (base58 signatures, hashes with separators). */
const GENERIC = /^[A-Za-z0-9][A-Za-z0-9:_-]{7,127}$/;

export function validateTxHash(network: string | null | undefined, hash: string): TxHashCheck {
  const value = hash.trim();
  const name = (network ?? '').toLowerCase();
  if (EVM.has(name) || PLAIN_HEX.has(name)) {
    const match = HEX64.exec(value);
    if (!match)
      return {
        ok: false,
        message: `This is not a ${name} transaction hash: expected 64 hexadecimal characters${EVM.has(name) ? ' (with or without 0x)' : ''}.`,
      };
    const hex = match[1].toLowerCase();
    return { ok: true, hash: EVM.has(name) ? `0x${hex}` : hex };
  }
  if (!GENERIC.test(value)) return { ok: false, message: 'This is not a valid transaction hash: 8 to 128 letters, digits, ":", "_" or "-".' };
  return { ok: true, hash: value };
}
