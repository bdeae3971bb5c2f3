import { describe, expect, it } from 'vitest';
import { toChecksumAddress, validateAddress } from './address-validation';

/** Changes one character of a string at `index` to another character of the same class. */
function corrupt(address: string, index: number): string {
  const ch = address[index];
  const replacement =
    ch === 'q'
      ? 'p'
      : ch === '1'
        ? '2'
        : ch === 'a'
          ? 'b'
          : ch === 'A'
            ? 'B'
            : /[0-9]/.test(ch)
              ? String((Number(ch) + 1) % 10 || 2)
              : ch === ch.toLowerCase()
                ? 'q'
                : 'Q';
  return address.slice(0, index) + replacement + address.slice(index + 1);
}

describe('validateAddress — bitcoin', () => {
  const valid = [
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // genesis coinbase, P2PKH
    '12cbQLTFMXRnSzktFkuoG3eHoMeFtpTu3S', // P2PKH (block 9, Satoshi to Hal Finney)
    '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // P2SH (bitcoin wiki)
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // BIP-173 P2WPKH
    'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', // BIP-173, upper case
    'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', // BIP-173 P2WSH
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', // bitcoin wiki example
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', // BIP-350 taproot (bech32m)
  ];
  it.each(valid)('accepts %s', (address) => {
    expect(validateAddress('bitcoin', address)).toBeUndefined();
  });

  const invalid: Array<[string, string]> = [
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'base58check checksum broken (last char)'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DjvfNa', 'one character changed'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN', 'truncated'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a', "'0' is not base58"],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'testnet P2PKH (version 0x6f)'],
    ['2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'testnet P2SH (version 0xc4)'],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'a TRON address'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'bech32 checksum broken'],
    ['bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mixed case'],
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet hrp'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'v1 with bech32 instead of bech32m (BIP-350)'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', 'v2 with bech32 instead of bech32m (BIP-350)'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'an Ethereum address'],
    ['', 'empty'],
    [' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'leading space'],
  ];
  it.each(invalid)('refuses %s (%s)', (address) => {
    expect(validateAddress('bitcoin', address)).toMatch(/Bitcoin address|required|spaces/);
  });

  it('says it is not a valid Bitcoin address', () => {
    expect(validateAddress('bitcoin', 'hello')).toBe('This is not a valid Bitcoin address.');
  });

  it('refuses every single-character corruption of a P2PKH and a bech32 address', () => {
    for (const good of ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq']) {
      for (let i = good.startsWith('bc1') ? 4 : 1; i < good.length; i++) {
        const bad = corrupt(good, i);
        if (bad === good) continue;
        expect(validateAddress('bitcoin', bad), bad).toBeDefined();
      }
    }
  });
});

describe('validateAddress — ethereum and EVM tokens', () => {
  // EIP-55 test vectors.
  const checksummed = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    '0xdAC17F958D2ee523a2206206994597C13D831ec7', // USDT contract
  ];
  it.each(checksummed)('accepts the checksummed %s', (address) => {
    expect(validateAddress('ethereum', address)).toBeUndefined();
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
  });

  it('accepts all-lowercase and all-uppercase addresses (no checksum)', () => {
    expect(validateAddress('ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBeUndefined();
    expect(validateAddress('ethereum', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBeUndefined();
  });

  it('refuses a mixed-case address whose checksum is wrong', () => {
    // One letter's case flipped.
    const bad = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    expect(validateAddress('ethereum', bad)).toBe('This Ethereum address has an invalid checksum (check for a mistyped character).');
    // One hex digit changed in a checksummed address.
    expect(validateAddress('ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAee')).toMatch(/invalid checksum/);
  });

  it.each([
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'too short'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0', 'too long'],
    ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00', 'no 0x'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', 'not hex'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'a bitcoin address'],
  ])('refuses %s (%s)', (address) => {
    expect(validateAddress('ethereum', address)).toBe('This is not a valid Ethereum address.');
  });

  it('treats other and custom tokens as EVM tokens', () => {
    expect(validateAddress('chainlink', '0x514910771AF9Ca656af840dff83E8264EcF986CA')).toBeUndefined();
    expect(validateAddress('my-custom-coin', '0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBeUndefined();
    expect(validateAddress('chainlink', 'not an address')).toBe('This is not a valid Chainlink address (an Ethereum-style 0x address is expected).');
    expect(validateAddress('chainlink', '0x514910771af9Ca656af840dff83E8264EcF986CA')).toMatch(/invalid checksum/);
  });
});

describe('validateAddress — tether', () => {
  it('accepts ERC-20 and TRC-20 addresses', () => {
    expect(validateAddress('tether', '0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBeUndefined();
    expect(validateAddress('tether', '0xdac17f958d2ee523a2206206994597c13d831ec7')).toBeUndefined();
    expect(validateAddress('tether', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeUndefined(); // USDT TRC-20 contract
  });

  it('refuses a corrupted TRON address, a bad checksum and a bitcoin address', () => {
    expect(validateAddress('tether', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toMatch(/not a valid Tether address/);
    expect(validateAddress('tether', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toMatch(/not a valid Tether address/);
    expect(validateAddress('tether', '0xdAC17F958D2ee523a2206206994597C13D831eC7')).toMatch(/invalid checksum/);
    expect(validateAddress('tether', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(
      'This is not a valid Tether address: use an ERC-20 (0x…) or TRC-20 (T…) address.',
    );
  });

  it('refuses every single-character corruption of a TRON address', () => {
    const good = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    for (let i = 1; i < good.length; i++) {
      const bad = corrupt(good, i);
      if (bad === good) continue;
      expect(validateAddress('tether', bad), bad).toBeDefined();
    }
  });
});
