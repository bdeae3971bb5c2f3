import { describe, expect, it } from 'vitest';
import { normaliseAddress, parseSanctionsList } from './sanctions-list';

describe('sanctions list', () => {
  it('normalises case per network: EVM and bech32 lowercase, base58 as written', () => {
    expect(normaliseAddress('ethereum', '0xDE709F2102306220921060314715629080E2FB77')).toBe('0xde709f2102306220921060314715629080e2fb77');
    expect(normaliseAddress('bsc', ' 0xAbC0000000000000000000000000000000000001 ')).toBe('0xabc0000000000000000000000000000000000001');
    expect(normaliseAddress('bitcoin', 'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ')).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    expect(normaliseAddress('litecoin', 'RLTC1QQURSWPC8QURSWPC8QURSWPC8QURSWPC8NTPXLG')).toBe('rltc1qqurswpc8qurswpc8qurswpc8qurswpc8ntpxlg');
    // Base58: case matters (another case is another address).
    expect(normaliseAddress('bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    expect(normaliseAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    // A base58 string that is not valid bech32 stays as written even on a bech32 network.
    expect(normaliseAddress('litecoin', 'LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1')).toBe('LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1');
  });

  it('reads network,address lines, skips comments, blanks, a header and duplicates, and names the lines it cannot read', () => {
    const parsed = parseSanctionsList(
      [
        'network,address',
        '# OFAC SDN, 2026-11-27',
        'ethereum,0xDE709F2102306220921060314715629080E2FB77',
        '',
        'Ethereum, 0xde709f2102306220921060314715629080e2fb77',
        'ltc,LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1',
        'bitcoin',
        'bitcoin,1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa,extra',
        'bitcoin,1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      ].join('\n'),
    );
    expect(parsed.entries).toEqual([
      { network: 'ethereum', address: '0xde709f2102306220921060314715629080e2fb77' },
      { network: 'bitcoin', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' },
    ]);
    expect(parsed.problems).toEqual([
      expect.stringMatching(/^line 6: unknown network "ltc"/),
      'line 7: expected network,address',
      'line 8: expected two fields, network,address',
    ]);
    expect(parsed.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
