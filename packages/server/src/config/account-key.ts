import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { acceptedKeyVersions, allKnownKeyVersions, type ChainKind, type ChainNetwork } from './chain-params';

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
