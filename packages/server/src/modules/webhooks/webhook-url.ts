import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { InvalidInputError } from '../../common/errors';

/**
 * Whether a receiver may be at this address: only ordinary public unicast addresses (ipaddr.js's `unicast` range).
 * Private, loopback, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved, and IPv6
 * forms that embed an IPv4 address (6to4, Teredo, NAT64) are refused; an IPv4-mapped IPv6 address counts as its IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The receiver URL's form: https (http too with `allowPrivate`), a host, no user or password, no fragment. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidInputError('Enter the full URL of your receiver, such as https://example.com/webhooks.');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new InvalidInputError('The URL must start with https:// (webhooks are sent over TLS only).');
  }
  if (url.username || url.password) throw new InvalidInputError('The URL must not carry a user name or password: verify our signature instead.');
  if (url.hash) throw new InvalidInputError('The URL must not have a #fragment.');
  if (!url.hostname) throw new InvalidInputError('The URL must name a host.');
  return url;
}

/** The host part as an address when it is one (`[::1]` → `::1`), else undefined. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}

const PRIVATE_MESSAGE = 'The URL leads to a private, loopback or link-local address; webhooks go to public addresses only.';

/** Refuses (400) a receiver whose host is, or resolves to, a non-public address, or does not resolve at all. */
export async function checkWebhookHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const literal = literalAddress(url);
  if (literal) {
    if (!isPublicAddress(literal)) throw new InvalidInputError(PRIVATE_MESSAGE);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve) => dnsLookup(url.hostname, { all: true }, (error, found) => resolve(error ? [] : found)));
  if (!addresses.length) throw new InvalidInputError(`The host ${url.hostname.slice(0, 100)} could not be found.`);
  if (addresses.some((entry) => !isPublicAddress(entry.address))) throw new InvalidInputError(PRIVATE_MESSAGE);
}

/** A delivery refused because its receiver's address is not public (checked again at every try). */
export class RefusedAddressError extends Error {}

/**
 * The `lookup` of a delivery's connection: resolves the host and refuses the connection when any address is not public,
 * so the address checked is the address connected to (a DNS answer that changed since the endpoint was saved — DNS
 * rebinding — is caught here). An address literal is never looked up: see `literalRefusal`.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family as number | undefined }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
      if (refused || !addresses.length) return callback(new RefusedAddressError(`Refused: ${hostname} resolves to a non-public address`), '', 4);
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Why a delivery to this URL's address literal is refused, or undefined when it may go. */
export function literalRefusal(url: URL, allowPrivate: boolean): string | undefined {
  const literal = literalAddress(url);
  if (!literal || allowPrivate || isPublicAddress(literal)) return undefined;
  return `Refused: ${literal} is not a public address`;
}
