import { keccak_256 } from '@noble/hashes/sha3.js';
import { decode as decodeCashAddr } from 'cashaddrjs';
import { isAddress as isSolanaAddress } from '@solana/addresses';
import WAValidator from 'multicoin-address-validator';
import { isValidClassicAddress, isValidXAddress, xAddressToClassicAddress } from 'ripple-address-codec';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { type ChainKind, isEvmNetwork, type UtxoNetwork, UTXO_NETWORKS, utxoAddressParams } from '../config/chain-params';
import { findNetwork, type NetworkDefinition, type NetworkId } from './networks';

/**
 * The chain each node-connected network runs (CHAIN_<NETWORK>_CHAIN), set at boot: a UTXO network on a test chain
 * accepts that chain's addresses (e.g. regtest litecoin `rltc1…`) and refuses mainnet ones. Unset: mainnet.
 */
const configuredChains = new Map<string, ChainKind>();

export function useChainsForAddresses(chains: ReadonlyArray<{ network: string; chain: ChainKind }>): void {
  configuredChains.clear();
  for (const { network, chain } of chains) if (chain !== 'mainnet') configuredChains.set(network, chain);
}

/** The chain a network's addresses are validated for. */
export function addressChainOf(networkId: string): ChainKind {
  return configuredChains.get(networkId) ?? 'mainnet';
}

const base58check = createBase58check(sha256);

/** A test-chain UTXO address: its bech32/bech32m SegWit prefix, base58 version bytes or CashAddr prefix. */
function isTestChainUtxoAddress(network: UtxoNetwork, chain: ChainKind, address: string): boolean {
  const params = utxoAddressParams(network, chain);
  if (params.cashAddrPrefix) {
    try {
      const decoded = decodeCashAddr(address.includes(':') ? address : `${params.cashAddrPrefix}:${address}`);
      if (decoded.prefix === params.cashAddrPrefix && decoded.hash.length === 20) return true;
    } catch {
      // not a CashAddr: maybe a legacy address below
    }
  }
  if (params.bech32 && address.toLowerCase().startsWith(`${params.bech32}1`)) {
    if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
    for (const coder of [bech32, bech32m]) {
      try {
        const { prefix, words } = coder.decode(address.toLowerCase() as `${string}1${string}`);
        if (prefix !== params.bech32 || !words.length) continue;
        const version = words[0];
        const program = coder.fromWords(words.slice(1));
        // BIP350: version 0 uses bech32 with a 20- or 32-byte program; versions 1–16 use bech32m.
        if (version === 0 && coder === bech32 && (program.length === 20 || program.length === 32)) return true;
        if (version >= 1 && version <= 16 && coder === bech32m && program.length >= 2 && program.length <= 40) return true;
      } catch {
        // try the other encoding
      }
    }
    return false;
  }
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 && (payload[0] === params.pubKeyHash || params.scriptHash.includes(payload[0]));
  } catch {
    return false;
  }
}

/**
 * Address validation per network, mainnet unless the network's node runs a test chain (see `useChainsForAddresses`),
 * through kept libraries:
 * - `multicoin-address-validator` (networkType 'prod'): bitcoin (base58 P2PKH/P2SH, bech32/bech32m segwit incl.
 *   taproot), litecoin, dogecoin, bitcoin-cash legacy `1…`/`3…` addresses, cardano (Shelley `addr1…`, Byron), stellar
 *   (`G…` account ids), tron (`T…`), and the EVM chains (`0x…` with EIP-55).
 * - `cashaddrjs` (the CashAddr reference implementation) for bitcoin-cash `bitcoincash:q…`/`p…` addresses: the
 *   multicoin one does not verify the CashAddr checksum (it accepts any string of the right alphabet).
 * - `@solana/addresses` (`isAddress`: base58 of exactly 32 bytes) for solana: the multicoin one only checks that a
 *   43–44 character string decodes, and refuses shorter real addresses such as the System Program's.
 * - `ripple-address-codec` for xrp: classic `r…` addresses and mainnet X-addresses (the multicoin one refuses
 *   X-addresses and the ACCOUNT_ZERO address).
 * EVM addresses keep the EIP-55 rule: a mixed-case address must carry a valid checksum, with its own message.
 */
const MULTICOIN_SYMBOL: Partial<Record<NetworkId, string>> = {
  bitcoin: 'btc',
  litecoin: 'ltc',
  dogecoin: 'doge',
  // Legacy BCH addresses share bitcoin's version bytes; CashAddr ones go to cashaddrjs (see above).
  'bitcoin-cash': 'btc',
  cardano: 'ada',
  stellar: 'xlm',
  tron: 'trx',
};

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function acceptedBy(network: NetworkDefinition, address: string): boolean {
  const chain = addressChainOf(network.id);
  if (chain !== 'mainnet' && !isEvmNetwork(network.id) && (UTXO_NETWORKS as readonly string[]).includes(network.id)) {
    return isTestChainUtxoAddress(network.id as UtxoNetwork, chain, address);
  }
  if (network.evm) return EVM_ADDRESS.test(address) && WAValidator.validate(address, 'eth', { networkType: 'prod' });
  if (network.id === 'solana') return isSolanaAddress(address);
  if (network.id === 'xrp') return isXrpMainnetAddress(address);
  if (network.id === 'bitcoin-cash' && !/^[13]/.test(address)) return isCashAddr(address);
  const symbol = MULTICOIN_SYMBOL[network.id];
  if (!symbol) return false;
  try {
    return WAValidator.validate(address, symbol, { networkType: 'prod' });
  } catch {
    return false;
  }
}

function isCashAddr(address: string): boolean {
  try {
    const decoded = decodeCashAddr(address.includes(':') ? address : `bitcoincash:${address}`);
    return decoded.prefix === 'bitcoincash' && decoded.hash.length === 20;
  } catch {
    return false;
  }
}

function isXrpMainnetAddress(address: string): boolean {
  if (isValidClassicAddress(address)) return true;
  try {
    return isValidXAddress(address) && !xAddressToClassicAddress(address).test;
  } catch {
    return false;
  }
}

/** Whether the address is a valid address of the network on its chain (no message). */
export function isAddressOn(networkId: string, address: string): boolean {
  const network = findNetwork(networkId);
  return !!network && typeof address === 'string' && address === address.trim() && address.length > 0 && acceptedBy(network, address);
}

/**
 * Returns `undefined` when the address is a valid address of the network on its chain (mainnet unless configured),
 * else a message for people that names the network: "This is not a valid Solana address." (on a test chain: "… regtest
 * Litecoin address.").
 */
export function validateAddress(networkId: string, address: string): string | undefined {
  const network = findNetwork(networkId);
  if (!network) return `Unknown network "${String(networkId).slice(0, 60)}".`;
  if (typeof address !== 'string' || address.length === 0) return 'A wallet address is required.';
  if (address !== address.trim()) return 'The address must not start or end with spaces.';
  if (acceptedBy(network, address)) return undefined;
  if (network.evm && EVM_ADDRESS.test(address) && toChecksumAddress(address) !== address) {
    return `This ${network.shortName} address has an invalid checksum (check for a mistyped character).`;
  }
  const chain = addressChainOf(network.id);
  return `This is not a valid ${chain === 'mainnet' ? '' : `${chain} `}${network.shortName} address.`;
}

/**
 * Checks the memo / destination tag of a transfer: only networks that have one accept it; an XRP destination tag is
 * a 32-bit whole number, a Stellar text memo at most 28 bytes. Returns the normalised memo (undefined when none).
 */
export function validateMemo(networkId: string, memo: string | undefined | null, address?: string): { memo?: string; error?: string } {
  const network = findNetwork(networkId);
  const value = typeof memo === 'string' ? memo.trim() : undefined;
  if (!value) return {};
  if (!network?.memo) return { error: `The ${network?.name ?? networkId} network has no memo or tag: leave it empty.` };
  if (network.id === 'xrp') {
    if (!/^\d{1,10}$/.test(value) || Number(value) > 4_294_967_295) {
      return { error: 'An XRP destination tag is a whole number from 0 to 4294967295.' };
    }
    if (address && isValidXAddress(address) && xAddressToClassicAddress(address).tag !== false) {
      return { error: 'This X-address already carries a destination tag: leave the tag empty.' };
    }
    return { memo: String(Number(value)) };
  }
  if (Buffer.byteLength(value, 'utf8') > 28 || /\p{Cc}/u.test(value)) return { error: 'A Stellar memo is at most 28 bytes of text.' };
  return { memo: value };
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
