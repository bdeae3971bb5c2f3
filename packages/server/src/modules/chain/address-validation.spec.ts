import { afterEach, describe, expect, it } from 'vitest';
import { NETWORK_ADDRESSES } from '../../../test/support/network-addresses';
import { deriveDepositAddress, parseAccountKey } from './derivation';
import { toChecksumAddress, useChainsForAddresses, validateAddress, validateMemo } from '../../common/address-validation';
import { NETWORK_IDS, NETWORKS } from '../../common/networks';

describe('network registry', () => {
  it('has the 14 networks, each with a display name and explorer patterns', () => {
    expect(NETWORKS.map((n) => n.id)).toEqual([...NETWORK_IDS]);
    for (const network of NETWORKS) {
      expect(network.name).toBeTruthy();
      expect(network.explorerTx).toContain('{tx}');
      expect(network.explorerAddress).toContain('{address}');
    }
    expect(NETWORKS.filter((n) => n.memo).map((n) => n.id)).toEqual(['xrp', 'stellar']);
  });
});

describe.each(NETWORK_ADDRESSES)('validateAddress — $network', ({ network, shortName, mainnet, wrongChain, testnet }) => {
  it.each(mainnet)('accepts the mainnet address %s', (address) => {
    expect(validateAddress(network, address)).toBeUndefined();
  });
  it.each(wrongChain)('refuses the other chain address %s, naming the network', (address) => {
    expect(validateAddress(network, address)).toBe(`This is not a valid ${shortName} address.`);
  });
  it.each(testnet.length ? testnet : ['(none distinguishable)'])('refuses the testnet address %s', (address) => {
    if (testnet.length) expect(validateAddress(network, address)).toBe(`This is not a valid ${shortName} address.`);
  });
  it('refuses a corrupted address, empty input and surrounding spaces', () => {
    const sample = mainnet[0];
    const corrupted = sample.slice(0, -1) + (sample.endsWith('a') ? 'b' : 'a');
    // Solana addresses are plain base58 public keys: no checksum, so a typo can still be a valid key.
    if (network !== 'solana') expect(validateAddress(network, corrupted)).toBeDefined();
    expect(validateAddress(network, '')).toBe('A wallet address is required.');
    expect(validateAddress(network, ` ${sample}`)).toBe('The address must not start or end with spaces.');
  });
});

describe('bitcoin-cash CashAddr checksum', () => {
  it('refuses a CashAddr with a broken checksum', () => {
    expect(validateAddress('bitcoin-cash', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6c')).toBe('This is not a valid Bitcoin Cash address.');
    expect(validateAddress('bitcoin-cash', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBeUndefined(); // legacy format
  });
});

describe('EVM checksum (EIP-55)', () => {
  it('accepts all-lower and all-upper case, refuses a broken mixed-case checksum with its own message', () => {
    expect(validateAddress('ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBeUndefined();
    expect(validateAddress('ethereum', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBeUndefined();
    expect(validateAddress('polygon', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(
      'This Polygon address has an invalid checksum (check for a mistyped character).',
    );
  });
  it('computes EIP-55 checksums', () => {
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  });
});

describe('validateMemo', () => {
  it('accepts XRP destination tags and Stellar memos only on those networks', () => {
    expect(validateMemo('xrp', '123456')).toEqual({ memo: '123456' });
    expect(validateMemo('xrp', '4294967296').error).toBe('An XRP destination tag is a whole number from 0 to 4294967295.');
    expect(validateMemo('xrp', 'abc').error).toBeDefined();
    expect(validateMemo('stellar', 'invoice 42')).toEqual({ memo: 'invoice 42' });
    expect(validateMemo('stellar', 'x'.repeat(29)).error).toBe('A Stellar memo is at most 28 bytes of text.');
    expect(validateMemo('bitcoin', '1').error).toBe('The Bitcoin network has no memo or tag: leave it empty.');
    expect(validateMemo('bitcoin', '')).toEqual({});
    expect(validateMemo('xrp', undefined)).toEqual({});
  });
  it('refuses a tag next to an X-address that already carries one', () => {
    expect(validateMemo('xrp', '1', 'XVLhHMPHU98es4dbozjVtdWzVrDjtV18pX8yuPT7y4xaEHi').error).toMatch(/already carries a destination tag/);
  });
});

describe('addresses follow the chain of the network’s node (CHAIN_<NETWORK>_CHAIN)', () => {
  afterEach(() => useChainsForAddresses([]));

  it('a regtest litecoin accepts rltc1… and refuses mainnet and testnet addresses; mainnet the other way round', () => {
    const regtest = deriveRegtest();
    expect(validateAddress('litecoin', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh')).toBeUndefined();
    expect(validateAddress('litecoin', regtest)).toBe('This is not a valid Litecoin address.');
    useChainsForAddresses([{ network: 'litecoin', chain: 'regtest' }]);
    expect(validateAddress('litecoin', regtest)).toBeUndefined();
    expect(validateAddress('litecoin', regtest.toUpperCase())).toBeUndefined();
    expect(validateAddress('litecoin', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh')).toBe('This is not a valid regtest Litecoin address.');
    expect(validateAddress('litecoin', 'LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ez')).toBe('This is not a valid regtest Litecoin address.');
    expect(validateAddress('litecoin', regtest.replace('rltc1', 'tltc1'))).toBeDefined();
    expect(validateAddress('litecoin', `${regtest.slice(0, -1)}${regtest.endsWith('q') ? 'p' : 'q'}`)).toBeDefined();
    // Other networks keep mainnet.
    expect(validateAddress('bitcoin', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')).toBeUndefined();
  });

  it('a testnet dogecoin and a regtest bitcoin-cash accept their own base58 and CashAddr forms', () => {
    useChainsForAddresses([
      { network: 'dogecoin', chain: 'testnet' },
      { network: 'bitcoin-cash', chain: 'regtest' },
    ]);
    const account = parseAccountKey('dogecoin', 'testnet', TEST_TPUB);
    expect(validateAddress('dogecoin', deriveDepositAddress(account, 0).address)).toBeUndefined();
    expect(validateAddress('dogecoin', 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC')).toBe('This is not a valid testnet Dogecoin address.');
    const bch = deriveDepositAddress(parseAccountKey('bitcoin-cash', 'regtest', TEST_TPUB), 3).address;
    expect(bch).toMatch(/^bchreg:/);
    expect(validateAddress('bitcoin-cash', bch)).toBeUndefined();
    expect(validateAddress('bitcoin-cash', bch.replace('bchreg:', ''))).toBeUndefined();
  });
});

/** m/84'/1'/0' of the "abandon … about" mnemonic. */
const TEST_TPUB = 'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M';

function deriveRegtest(): string {
  return deriveDepositAddress(parseAccountKey('litecoin', 'regtest', TEST_TPUB), 0).address;
}
