import { API_KEY_PREFIX, API_KEY_PREFIX_LENGTH } from '@coinpurse/contract';
import ipaddr from 'ipaddr.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** `cp_` and 40 base64url characters: 240 random bits. */
const KEY_SHAPE = /^cp_[A-Za-z0-9_-]{40}$/;

/** A new key: `cp_` + 30 random bytes in base64url, its public prefix and the hash that is stored. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** The prefix of a well-formed key, or undefined (then no database read is needed to refuse it). */
export function apiKeyPrefix(key: string): string | undefined {
  return KEY_SHAPE.test(key) ? key.slice(0, API_KEY_PREFIX_LENGTH) : undefined;
}

/** SHA-256 (hex): the key carries 240 random bits, so a slow hash would add nothing but time. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether `key` hashes to `storedHash`, compared in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = createHash('sha256').update(key, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An address as compared: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is its IPv4 form. */
function parseAddress(text: string): Address | undefined {
  if (!isIP(text)) return undefined;
  return ipaddr.process(text);
}

/**
 * One entry of a key's address list in its stored form (`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`), or
 * undefined when it is neither an address nor a CIDR range. Mapped IPv6 forms are stored as IPv4, and a range as its
 * network address (`10.1.2.3/8` → `10.0.0.0/8`).
 */
export function normalizeAllowedIp(entry: string): string | undefined {
  const text = entry.trim();
  const [addressText, bitsText, ...rest] = text.split('/');
  if (rest.length) return undefined;
  const raw = isIP(addressText) ? ipaddr.parse(addressText) : undefined;
  if (!raw) return undefined;
  if (bitsText === undefined) return parseAddress(addressText)!.toString();
  if (!/^\d{1,3}$/.test(bitsText)) return undefined;
  let bits = Number(bitsText);
  let address: Address = raw;
  if (raw.kind() === 'ipv6' && (raw as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    address = (raw as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
  }
  const width = address.kind() === 'ipv4' ? 32 : 128;
  if (bits > width) return undefined;
  const network =
    address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** Whether the client address is on the list (an empty list allows every address). */
export function addressAllowed(clientIp: string | undefined, allowed: readonly string[]): boolean {
  if (!allowed.length) return true;
  const client = clientIp ? parseAddress(clientIp) : undefined;
  if (!client) return false;
  return allowed.some((entry) => {
    const [addressText, bitsText] = entry.split('/');
    const address = parseAddress(addressText);
    if (!address || address.kind() !== client.kind()) return false;
    if (bitsText === undefined) return address.toString() === client.toString();
    return client.match(address, Number(bitsText));
  });
}
