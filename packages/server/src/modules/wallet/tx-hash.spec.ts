import { describe, expect, it } from 'vitest';
import { txExplorerUrl, validateTxHash } from './tx-hash';

const HEX = 'a'.repeat(32) + 'B'.repeat(32);

describe('validateTxHash', () => {
  it('EVM: 64 hex with or without 0x, normalised to lower-case 0x…', () => {
    expect(validateTxHash('ethereum', HEX)).toEqual({ ok: true, hash: `0x${HEX.toLowerCase()}` });
    expect(validateTxHash('ethereum', `0x${HEX}`)).toEqual({ ok: true, hash: `0x${HEX.toLowerCase()}` });
    expect(validateTxHash('ethereum', `0x${HEX}00`).ok).toBe(false);
  });
  it('bitcoin-like, TRON, XRP, Stellar, Cardano: 64 hex, any 0x dropped', () => {
    expect(validateTxHash('bitcoin', ` 0x${HEX} `)).toEqual({ ok: true, hash: HEX.toLowerCase() });
    expect(validateTxHash('tron', HEX)).toEqual({ ok: true, hash: HEX.toLowerCase() });
    expect(validateTxHash('xrp', HEX)).toEqual({ ok: true, hash: HEX.toLowerCase() });
    expect(validateTxHash('bitcoin', 'zz' + HEX.slice(2))).toEqual({
      ok: false,
      message: 'This is not a Bitcoin transaction hash: expected 64 hexadecimal characters.',
    });
  });
  it('Solana: a base58 signature', () => {
    expect(validateTxHash('solana', '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW')).toMatchObject({ ok: true });
    expect(validateTxHash('solana', HEX).ok).toBe(false);
    expect(validateTxHash('solana', '=cmd|x').ok).toBe(false);
  });
  it('outside the registry: a conservative generic id', () => {
    expect(validateTxHash(null, 'short').ok).toBe(false);
    expect(validateTxHash('somechain', 'abcdef-123456').ok).toBe(true);
  });
  it("links to the network's explorer", () => {
    expect(txExplorerUrl('tron', 'abc')).toBe('https://tronscan.org/#/transaction/abc');
    expect(txExplorerUrl('nowhere', 'abc')).toBeUndefined();
  });
});
