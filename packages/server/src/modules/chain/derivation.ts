import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { bech32, createBase58check } from '@scure/base';
import { encode as encodeCashAddr } from 'cashaddrjs';
import { toChecksumAddress } from '../../common/address-validation';
import { acceptedKeyVersions, allKnownKeyVersions, type ChainKind, type ChainNetwork, isEvmNetwork, utxoAddressParams } from './chain-params';

const base58check = createBase58check(sha256);

/** The operator's account-level public key of one network, parsed once (watch-only: it never holds a private key). */
export interface AccountKey {
  network: ChainNetwork;
  chain: ChainKind;
  key: HDKey;
  /** The external (receiving) chain …/0 of the key, derived once. */
  external: HDKey;
  /** Hex of the key's own fingerprint: names which key an address was derived from (a changed XPUB shows). */
  fingerprint: string;
}

/** A derived deposit address and the output script that pays it (UTXO family; the address itself for EVM). */
export interface DerivedAddress {
  index: number;
  address: string;
  /** UTXO: the scriptPubKey hex outputs to this address carry; EVM: the lowercase address. Deposits are matched on it. */
  matchKey: string;
}

export class AccountKeyError extends Error {}

/**
 * Parses an account-level extended public key (depth 3, e.g. m/84'/2'/0') for a network and chain. Accepts the
 * standard `xpub`/`tpub` and the SLIP-132 forms the chain allows (see `acceptedKeyVersions`); refuses private keys,
 * keys of another chain, and keys that are not account-level. Messages never repeat the key.
 */
export function parseAccountKey(network: ChainNetwork, chain: ChainKind, text: string): AccountKey {
  const value = text.trim();
  if (/^(xprv|tprv|[yzuvYZUV]prv|Ltpv|Mtpv|ttpv|dgpv)/.test(value)) {
    throw new AccountKeyError('is a private key: give the account-level extended PUBLIC key (the server never holds a private key)');
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(value);
  } catch {
    throw new AccountKeyError('is not an extended public key (base58check)');
  }
  if (payload.length !== 78) throw new AccountKeyError('is not an extended public key (78 bytes)');
  const version = new DataView(payload.buffer, payload.byteOffset).getUint32(0);
  const accepted = acceptedKeyVersions(network, chain);
  const prefix = Object.entries(accepted).find(([, v]) => v === version)?.[0];
  if (!prefix) {
    const known = Object.entries(allKnownKeyVersions()).find(([, v]) => v === version)?.[0];
    const names = Object.keys(accepted).join(', ');
    throw new AccountKeyError(
      known ? `is a ${known} key, which is not for ${network} ${chain} (accepted: ${names})` : `has an unknown version (accepted: ${names})`,
    );
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(value, { public: version, private: 0 });
  } catch (error) {
    throw new AccountKeyError(`could not be read (${(error as Error).message})`);
  }
  if (key.privateKey) throw new AccountKeyError('is a private key: give the extended PUBLIC key');
  if (key.depth !== 3) throw new AccountKeyError(`must be an account-level key (depth 3, e.g. m/84'/0'/0'); this one has depth ${key.depth}`);
  return { network, chain, key, external: key.deriveChild(0), fingerprint: key.fingerprint.toString(16).padStart(8, '0') };
}

function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

/**
 * The deposit address at `index` on the external chain (…/0/index) of the account key: BIP84 native SegWit (P2WPKH)
 * for bitcoin and litecoin, BIP44 P2PKH for dogecoin, CashAddr P2PKH for bitcoin-cash, and for the EVM family the
 * Ethereum address of m/44'/60'/0'/0/index (EIP-55).
 */
export function deriveDepositAddress(account: AccountKey, index: number): DerivedAddress {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) throw new Error(`Derivation index out of range: ${index}`);
  const child = account.external.deriveChild(index);
  const publicKey = child.publicKey!;
  if (isEvmNetwork(account.network)) {
    const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
    const address = toChecksumAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12)));
    return { index, address, matchKey: address.toLowerCase() };
  }
  const params = utxoAddressParams(account.network, account.chain);
  const hash = hash160(publicKey);
  if (params.bech32) {
    const address = bech32.encode(params.bech32, [0, ...bech32.toWords(hash)]);
    return { index, address, matchKey: `0014${bytesToHex(hash)}` };
  }
  const matchKey = `76a914${bytesToHex(hash)}88ac`;
  if (params.cashAddrPrefix) return { index, address: encodeCashAddr(params.cashAddrPrefix, 'P2PKH', hash), matchKey };
  return { index, address: base58check.encode(Uint8Array.from([params.pubKeyHash, ...hash])), matchKey };
}
