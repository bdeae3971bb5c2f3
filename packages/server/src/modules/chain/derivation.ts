import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32, createBase58check } from '@scure/base';
import { encode as encodeCashAddr } from 'cashaddrjs';
import { toChecksumAddress } from '../../common/address-validation';
import { type AccountKey } from '../../config/account-key';
import { isEvmNetwork, utxoAddressParams } from '../../config/chain-params';

export { type AccountKey, AccountKeyError, parseAccountKey } from '../../config/account-key';

const base58check = createBase58check(sha256);

/** A derived deposit address and the output script that pays it (UTXO family; the address itself for EVM). */
export interface DerivedAddress {
  index: number;
  address: string;
  /** UTXO: the scriptPubKey hex outputs to this address carry; EVM: the lowercase address. Deposits are matched on it. */
  matchKey: string;
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
