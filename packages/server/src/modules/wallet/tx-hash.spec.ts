import { describe, expect, it } from 'vitest';
import { validateTxHash } from './tx-hash';

const HEX = 'a'.repeat(32) + 'B'.repeat(32);

describe('validateTxHash', () => {
  it('EVM: 64 hex with or without 0x, normalised to lower-case 0x…', () => {
    expect(validateTxHash('ethereum', HEX)).toEqual({ ok: true, hash: `0x${HEX.toLowerCase()}` });
    expect(validateTxHash('ethereum', `0x${HEX}`)).toEqual({ ok: true, hash: `0x${HEX.toLowerCase()}` });
    expect(validateTxHash('ethereum', `0x${HEX}00`).ok).toBe(false);
  });
  it('bitcoin-like and TRON: 64 hex, any 0x dropped', () => {
    expect(validateTxHash('bitcoin', ` 0x${HEX} `)).toEqual({ ok: true, hash: HEX.toLowerCase() });
    expect(validateTxHash('tether', HEX)).toEqual({ ok: true, hash: HEX.toLowerCase() });
    expect(validateTxHash('bitcoin', 'zz' + HEX.slice(2))).toEqual({
      ok: false,
      message: 'This is not a bitcoin transaction hash: expected 64 hexadecimal characters.',
    });
  });
  it('other networks: a conservative generic id', () => {
    expect(validateTxHash('solana', '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW')).toMatchObject({ ok: true });
    expect(validateTxHash(null, 'short').ok).toBe(false);
    expect(validateTxHash('solana', '=cmd|x').ok).toBe(false);
  });
});
