import { createHash } from 'node:crypto';
import { bech32, bech32m } from 'bech32';
import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * Address validation per token network.
 *
 * - bitcoin: base58check P2PKH (version 0x00, `1…`) / P2SH (0x05, `3…`) on mainnet, and segwit bech32 (v0) /
 *   bech32m (v1+) `bc1…` (BIP-173 / BIP-350).
 * - ethereum and every other token (ERC-20 tokens, custom tokens): `0x` + 40 hex; a mixed-case address must carry a
 *   valid EIP-55 checksum.
 * - tether: an ERC-20 address (as above) or a TRC-20 (TRON) address: base58check, 21 bytes starting with 0x41 (`T…`).
 *
 * Returns `undefined` when the address is valid, else a message for people.
 */
export function validateAddress(tokenId: string, address: string): string | undefined {
  if (typeof address !== 'string' || address.length === 0) return 'A wallet address is required.';
  if (address !== address.trim()) return 'The address must not start or end with spaces.';
  switch (tokenId) {
    case 'bitcoin':
      return isBitcoinAddress(address) ? undefined : 'This is not a valid Bitcoin address.';
    case 'ethereum':
      return evmAddressError(address, 'Ethereum');
    case 'tether':
      if (isTronAddress(address)) return undefined;
      if (address.startsWith('0x') || address.startsWith('0X')) {
        const error = evmAddressError(address, 'Tether (ERC-20)');
        return error;
      }
      return 'This is not a valid Tether address: use an ERC-20 (0x…) or TRC-20 (T…) address.';
    default:
      return evmAddressError(address, tokenLabel(tokenId), ' (an Ethereum-style 0x address is expected)');
  }
}

/** The network used for a token's addresses, for messages and the OpenAPI description. */
export function addressNetwork(tokenId: string): 'bitcoin' | 'tron-or-evm' | 'evm' {
  if (tokenId === 'bitcoin') return 'bitcoin';
  if (tokenId === 'tether') return 'tron-or-evm';
  return 'evm';
}

function tokenLabel(tokenId: string): string {
  const clean = String(tokenId).slice(0, 60);
  return clean ? clean.charAt(0).toUpperCase() + clean.slice(1) : 'this token';
}

// ---------------------------------------------------------------- EVM (EIP-55)

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function evmAddressError(address: string, label: string, hint = ''): string | undefined {
  if (!EVM_ADDRESS.test(address)) return `This is not a valid ${label} address${hint}.`;
  const body = address.slice(2);
  const allLower = body === body.toLowerCase();
  const allUpper = body === body.toUpperCase();
  if (allLower || allUpper) return undefined;
  if (toChecksumAddress(body) !== address) {
    return `This ${label} address has an invalid checksum (check for a mistyped character).`;
  }
  return undefined;
}

/** EIP-55: `0x` + the address with letters upper-cased where the keccak256 nibble of the lowercase hex is ≥ 8. */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase().replace(/^0x/, '');
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const byte = hash[i >> 1];
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

// ---------------------------------------------------------------- base58check

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_MAP = new Map([...BASE58_ALPHABET].map((c, i) => [c, i] as const));

function base58Decode(input: string): Uint8Array | undefined {
  if (input.length === 0 || input.length > 64) return undefined;
  let value = 0n;
  for (const ch of input) {
    const digit = BASE58_MAP.get(ch);
    if (digit === undefined) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  let leadingZeros = 0;
  while (leadingZeros < input.length && input[leadingZeros] === '1') leadingZeros++;
  return Uint8Array.from([...new Array<number>(leadingZeros).fill(0), ...bytes]);
}

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Decodes base58check; returns the payload (version byte included) when the 4-byte checksum matches. */
function base58CheckDecode(input: string): Uint8Array | undefined {
  const raw = base58Decode(input);
  if (!raw || raw.length < 5) return undefined;
  const payload = raw.subarray(0, raw.length - 4);
  const checksum = raw.subarray(raw.length - 4);
  const expected = sha256(sha256(payload)).subarray(0, 4);
  for (let i = 0; i < 4; i++) if (checksum[i] !== expected[i]) return undefined;
  return payload;
}

// ---------------------------------------------------------------- bitcoin

function isBitcoinAddress(address: string): boolean {
  if (/^bc1/i.test(address)) return isSegwitAddress(address);
  const payload = base58CheckDecode(address);
  // 1 version byte + 20-byte hash160; 0x00 = P2PKH, 0x05 = P2SH (mainnet).
  return !!payload && payload.length === 21 && (payload[0] === 0x00 || payload[0] === 0x05);
}

function isSegwitAddress(address: string): boolean {
  if (address.length > 90) return false;
  // BIP-173: all lower or all upper case.
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase();
  for (const [codec, wantBech32m] of [
    [bech32, false],
    [bech32m, true],
  ] as const) {
    let decoded: { prefix: string; words: number[] };
    try {
      decoded = codec.decode(lower, 90);
    } catch {
      continue;
    }
    if (decoded.prefix !== 'bc' || decoded.words.length < 1) return false;
    const version = decoded.words[0];
    if (version > 16) return false;
    // BIP-350: v0 uses bech32, v1..v16 use bech32m.
    if ((version === 0) === wantBech32m) return false;
    let program: number[];
    try {
      program = codec.fromWords(decoded.words.slice(1));
    } catch {
      return false;
    }
    if (program.length < 2 || program.length > 40) return false;
    if (version === 0 && program.length !== 20 && program.length !== 32) return false;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- tron (TRC-20)

function isTronAddress(address: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return false;
  const payload = base58CheckDecode(address);
  return !!payload && payload.length === 21 && payload[0] === 0x41;
}
