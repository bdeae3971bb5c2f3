import { bech32, bech32m } from 'bech32';
import { createHash } from 'node:crypto';
import { findNetwork, NETWORK_IDS } from '../../common/networks';

/** One sanctioned address, as normalised for its network. */
export interface SanctionedAddress {
  network: string;
  address: string;
}

/** Bech32 and CashAddr strings are case-insensitive (mixed case is invalid): compared in lowercase. */
const CASHADDR = /^((bitcoincash|bchtest|bchreg):)?[qp][02-9ac-hj-np-z]{41}$/i;

function isBech32(text: string): boolean {
  const lower = text.toLowerCase();
  return Boolean(bech32.decodeUnsafe(lower, 1023) ?? bech32m.decodeUnsafe(lower, 1023));
}

/**
 * An address as it is compared, per network: EVM addresses lowercase (EIP-55's mixed case is only a checksum), bech32
 * (segwit, Cardano) and CashAddr lowercase, anything else (base58, base32 Stellar, XRP) exactly as written.
 */
export function normaliseAddress(network: string, address: string): string {
  const text = address.trim();
  if (findNetwork(network)?.evm) return text.toLowerCase();
  if (isBech32(text) || CASHADDR.test(text)) return text.toLowerCase();
  return text;
}

export interface ParsedSanctionsList {
  entries: SanctionedAddress[];
  /** Lines that could not be read, for people ("line 3: unknown network \"ltc\""); at most 20. */
  problems: string[];
  sha256: string;
}

/**
 * `network,address` a line; blank lines and `#` comments skipped; a header line `network,address` allowed. Unknown
 * networks are refused rather than skipped: a typo must not silently screen nothing.
 */
export function parseSanctionsList(text: string): ParsedSanctionsList {
  const seen = new Set<string>();
  const entries: SanctionedAddress[] = [];
  const problems: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [networkRaw, addressRaw, ...rest] = line.split(',').map((part) => part.trim());
    if (index === 0 && networkRaw.toLowerCase() === 'network' && addressRaw?.toLowerCase() === 'address') continue;
    const network = networkRaw.toLowerCase();
    const problem = !addressRaw
      ? 'expected network,address'
      : rest.some(Boolean)
        ? 'expected two fields, network,address'
        : !(NETWORK_IDS as readonly string[]).includes(network)
          ? `unknown network "${networkRaw.slice(0, 40)}" (one of ${NETWORK_IDS.join(', ')})`
          : !/^[\x21-\x7e]{1,200}$/.test(addressRaw)
            ? 'the address must be 1 to 200 printable characters without spaces'
            : undefined;
    if (problem) {
      if (problems.length < 20) problems.push(`line ${index + 1}: ${problem}`);
      continue;
    }
    const address = normaliseAddress(network, addressRaw);
    const key = `${network}\n${address}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({ network, address });
  }
  return { entries, problems, sha256: createHash('sha256').update(text).digest('hex') };
}
