import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { mnemonicToSeedSync } from '@scure/bip39';
import { decode as decodeCashAddr } from 'cashaddrjs';
import { describe, expect, it } from 'vitest';
import { isAddressOn } from '../../common/address-validation';
import { parseAccountKey, deriveDepositAddress } from './derivation';

/** The BIP39/BIP84 test mnemonic ("abandon" × 11 + "about"), used by the published vectors below. */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC));
const base58check = createBase58check(sha256);

/** The account key at `path` serialised with other version bytes (SLIP-132 forms). */
function accountKey(path: string, version = 0x0488b21e): string {
  const standard = base58check.decode(root.derive(path).publicExtendedKey);
  const bytes = Uint8Array.from(standard);
  new DataView(bytes.buffer).setUint32(0, version);
  return base58check.encode(bytes);
}

describe('watch-only deposit address derivation (published test vectors)', () => {
  it('BIP84: the published zpub of m/84h/0h/0h gives bc1qcr8te4… at 0/0 and bc1qnjg0jd… at 0/1', () => {
    // BIP84 "Test vectors": account 0 xpub, first and second receiving addresses.
    const zpub = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    expect(accountKey("m/84'/0'/0'", 0x04b24746)).toBe(zpub);
    const account = parseAccountKey('bitcoin', 'mainnet', zpub);
    expect(deriveDepositAddress(account, 0)).toEqual({
      index: 0,
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      matchKey: expect.stringMatching(/^0014[0-9a-f]{40}$/),
    });
    expect(deriveDepositAddress(account, 1).address).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    // The same key as a standard xpub derives the same addresses.
    expect(deriveDepositAddress(parseAccountKey('bitcoin', 'mainnet', accountKey("m/84'/0'/0'")), 0).address).toBe(
      'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    );
  });

  it("Litecoin BIP84 m/84'/2'/0'/0/0 → ltc1qjmxnz78…, from an Ltub, a zpub or an xpub", () => {
    for (const version of [0x019da462, 0x04b24746, 0x0488b21e]) {
      const account = parseAccountKey('litecoin', 'mainnet', accountKey("m/84'/2'/0'", version));
      expect(deriveDepositAddress(account, 0).address).toBe('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh');
    }
  });

  it("Dogecoin BIP44 m/44'/3'/0'/0/0 → DBus3bam…", () => {
    const account = parseAccountKey('dogecoin', 'mainnet', accountKey("m/44'/3'/0'", 0x02facafd));
    expect(deriveDepositAddress(account, 0)).toMatchObject({
      address: 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC',
      matchKey: expect.stringMatching(/^76a914[0-9a-f]{40}88ac$/),
    });
  });

  it("Ethereum BIP44 m/44'/60'/0'/0/0 → 0x9858EfFD…, the same on every EVM network", () => {
    for (const network of ['ethereum', 'bsc', 'polygon', 'arbitrum', 'avalanche'] as const) {
      const account = parseAccountKey(network, 'mainnet', accountKey("m/44'/60'/0'"));
      expect(deriveDepositAddress(account, 0)).toEqual({
        index: 0,
        address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
        matchKey: '0x9858effd232b4033e47d90003d41ec34ecaeda94',
      });
    }
  });

  it("Bitcoin Cash: CashAddr P2PKH of m/44'/145'/0'/0/0, the same key hash as its legacy form", () => {
    const account = parseAccountKey('bitcoin-cash', 'mainnet', accountKey("m/44'/145'/0'"));
    const derived = deriveDepositAddress(account, 0);
    expect(derived.address).toMatch(/^bitcoincash:q[02-9ac-hj-np-z]{41}$/);
    const decoded = decodeCashAddr(derived.address);
    expect(Buffer.from(decoded.hash).toString('hex')).toBe(Buffer.from(root.derive("m/44'/145'/0'/0/0").pubKeyHash!).toString('hex'));
    expect(isAddressOn('bitcoin-cash', derived.address)).toBe(true);
  });

  it('test chains: tpub, vpub and ttub accepted; litecoin regtest addresses are rltc1…, testnet tltc1…', () => {
    for (const version of [0x043587cf, 0x045f1cf6, 0x0436f6e1]) {
      const key = accountKey("m/84'/1'/0'", version);
      expect(deriveDepositAddress(parseAccountKey('litecoin', 'regtest', key), 0).address).toMatch(/^rltc1q[02-9ac-hj-np-z]{38}$/);
      expect(deriveDepositAddress(parseAccountKey('litecoin', 'testnet', key), 0).address).toMatch(/^tltc1q/);
    }
    expect(deriveDepositAddress(parseAccountKey('bitcoin', 'regtest', accountKey("m/84'/1'/0'", 0x043587cf)), 0).address).toMatch(/^bcrt1q/);
    expect(deriveDepositAddress(parseAccountKey('dogecoin', 'testnet', accountKey("m/44'/1'/0'", 0x043587cf)), 0).address).toMatch(/^n/);
    expect(deriveDepositAddress(parseAccountKey('bitcoin-cash', 'regtest', accountKey("m/44'/1'/0'", 0x043587cf)), 0).address).toMatch(/^bchreg:q/);
  });

  it('refuses private keys, keys of the other chain, non-account keys and garbage, without repeating the key', () => {
    const xprv = root.derive("m/84'/0'/0'").privateExtendedKey;
    expect(() => parseAccountKey('bitcoin', 'mainnet', xprv)).toThrow(/private key/);
    expect(() => parseAccountKey('litecoin', 'regtest', accountKey("m/84'/2'/0'", 0x04b24746))).toThrow(/zpub key, which is not for litecoin regtest/);
    expect(() => parseAccountKey('litecoin', 'mainnet', accountKey("m/84'/2'/0'", 0x0436f6e1))).toThrow(/ttub key, which is not for litecoin mainnet/);
    expect(() => parseAccountKey('bitcoin', 'mainnet', root.derive("m/84'/0'").publicExtendedKey)).toThrow(/account-level key \(depth 3.*depth 2/);
    expect(() => parseAccountKey('bitcoin', 'mainnet', 'xpub-not-really')).toThrow(/not an extended public key/);
    try {
      parseAccountKey('bitcoin', 'mainnet', xprv);
    } catch (error) {
      expect((error as Error).message).not.toContain(xprv.slice(4, 20));
    }
  });

  it('derives 1,000 distinct addresses, each the same every time', () => {
    const account = parseAccountKey('litecoin', 'regtest', accountKey("m/84'/1'/0'", 0x043587cf));
    const first = Array.from({ length: 1000 }, (_, i) => deriveDepositAddress(account, i).address);
    expect(new Set(first).size).toBe(1000);
    expect(deriveDepositAddress(account, 999).address).toBe(first[999]);
  });
});
