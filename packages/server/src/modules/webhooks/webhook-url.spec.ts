import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { guardedLookup, isPublicAddress, literalRefusal, parseWebhookUrl, RefusedAddressError } from './webhook-url';

describe('webhook receivers', () => {
  it('are public unicast addresses only', () => {
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(isPublicAddress(ok)).toBe(true);
    for (const refused of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'ff02::1',
      'not an address',
    ]) {
      expect(isPublicAddress(refused)).toBe(false);
    }
  });

  it('are https URLs without credentials or fragment (http too when private networks are allowed)', () => {
    expect(parseWebhookUrl('https://example.com/hooks?x=1', false).toString()).toBe('https://example.com/hooks?x=1');
    expect(() => parseWebhookUrl('http://example.com/', false)).toThrow(/https/);
    expect(parseWebhookUrl('http://127.0.0.1:8080/h', true).toString()).toBe('http://127.0.0.1:8080/h');
    expect(() => parseWebhookUrl('ftp://example.com/', true)).toThrow(/https/);
    expect(() => parseWebhookUrl('https://a:b@example.com/', false)).toThrow(/user name or password/);
    expect(() => parseWebhookUrl('https://example.com/#x', false)).toThrow(/fragment/);
    expect(() => parseWebhookUrl('example.com', false)).toThrow(/full URL/);
  });

  it('refuse an address literal that is not public at delivery time', () => {
    expect(literalRefusal(new URL('https://[::1]/h'), false)).toBe('Refused: ::1 is not a public address');
    expect(literalRefusal(new URL('https://10.0.0.1/h'), false)).toBe('Refused: 10.0.0.1 is not a public address');
    expect(literalRefusal(new URL('https://10.0.0.1/h'), true)).toBeUndefined();
    expect(literalRefusal(new URL('https://example.com/h'), false)).toBeUndefined();
  });

  it('refuse at connect time a host name that resolves to a private address (DNS rebinding), unless allowed', async () => {
    const lookup = (allowPrivate: boolean, all: boolean) =>
      new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
        guardedLookup(allowPrivate)('localhost', { all }, (error: Error | null, address: string | LookupAddress[]) => resolve({ error, address })),
      );
    for (const all of [false, true]) {
      const refused = await lookup(false, all);
      expect(refused.error).toBeInstanceOf(RefusedAddressError);
      expect(refused.error!.message).toBe('Refused: localhost resolves to a non-public address');
      const allowed = await lookup(true, all);
      expect(allowed.error).toBeNull();
      expect(JSON.stringify(allowed.address)).toMatch(/127\.0\.0\.1|::1/);
    }
  });
});
