import { describe, expect, it } from 'vitest';
import { addressAllowed, apiKeyMatches, apiKeyPrefix, hashApiKey, newApiKey, normalizeAllowedIp } from './api-key-format';

describe('API key format', () => {
  it('makes cp_ keys of 240 random bits whose prefix is their first 12 characters, and checks them by hash', () => {
    const { key, prefix, hash } = newApiKey();
    expect(key).toMatch(/^cp_[A-Za-z0-9_-]{40}$/);
    expect(prefix).toBe(key.slice(0, 12));
    expect(apiKeyPrefix(key)).toBe(prefix);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).not.toContain(key.slice(12));
    expect(apiKeyMatches(key, hash)).toBe(true);
    expect(apiKeyMatches(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, hash)).toBe(false);
    expect(apiKeyPrefix('cp_short')).toBeUndefined();
    expect(apiKeyPrefix('eyJhbGciOiJIUzI1NiJ9.e30.x')).toBeUndefined();
    expect(newApiKey().key).not.toBe(key);
  });

  it('stores addresses and ranges in one form: IPv4-mapped as IPv4, a range as its network', () => {
    expect(normalizeAllowedIp('203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAllowedIp(' ::ffff:127.0.0.1 ')).toBe('127.0.0.1');
    expect(normalizeAllowedIp('10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(normalizeAllowedIp('::ffff:198.51.100.0/120')).toBe('198.51.100.0/24');
    expect(normalizeAllowedIp('2001:db8::1/32')).toBe('2001:db8::/32');
    for (const bad of ['', '1', '127.1', '0x7f.0.0.1', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', 'example.com', '10.0.0.0/x']) {
      expect(normalizeAllowedIp(bad)).toBeUndefined();
    }
  });

  it('matches a client address against the list (empty: anywhere)', () => {
    expect(addressAllowed('198.51.100.9', [])).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('198.51.100.9', ['198.51.100.0/24'])).toBe(true);
    expect(addressAllowed('::ffff:198.51.100.9', ['198.51.100.0/24'])).toBe(true);
    expect(addressAllowed('198.51.101.9', ['198.51.100.0/24'])).toBe(false);
    expect(addressAllowed('2001:db8::5', ['2001:db8::/32'])).toBe(true);
    expect(addressAllowed('2001:db9::5', ['2001:db8::/32'])).toBe(false);
    expect(addressAllowed('10.0.0.1', ['2001:db8::/32'])).toBe(false);
    expect(addressAllowed(undefined, ['127.0.0.1'])).toBe(false);
  });
});
