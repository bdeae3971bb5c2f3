import { findNetwork } from '../../common/networks';

/** Chain transaction ids of settled withdrawals, checked against the format of the network they were sent on. */
export type TxHashCheck = { ok: true; hash: string } | { ok: false; message: string };

const HEX64 = /^(?:0x)?([0-9a-f]{64})$/i;
/** Networks whose transaction ids are 64 hex characters without a prefix. */
const PLAIN_HEX = new Set(['bitcoin', 'litecoin', 'dogecoin', 'bitcoin-cash', 'tron', 'xrp', 'stellar', 'cardano']);
/** A Solana transaction id is a base58 signature of 64 bytes (86 to 88 characters). */
const SOLANA_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{86,88}$/;
/** Anything else (a network outside the registry): a conservative text id. */
const GENERIC = /^[A-Za-z0-9][A-Za-z0-9:_-]{7,127}$/;

export function validateTxHash(networkId: string | null | undefined, hash: string): TxHashCheck {
  const value = hash.trim();
  const network = findNetwork(networkId);
  if (network && (network.evm || PLAIN_HEX.has(network.id))) {
    const match = HEX64.exec(value);
    if (!match)
      return {
        ok: false,
        message: `This is not a ${network.name} transaction hash: expected 64 hexadecimal characters${network.evm ? ' (with or without 0x)' : ''}.`,
      };
    const hex = match[1].toLowerCase();
    return { ok: true, hash: network.evm ? `0x${hex}` : hex };
  }
  if (network?.id === 'solana') {
    return SOLANA_SIGNATURE.test(value)
      ? { ok: true, hash: value }
      : { ok: false, message: 'This is not a Solana transaction signature (base58, 86 to 88 characters).' };
  }
  if (!GENERIC.test(value)) return { ok: false, message: 'This is not a valid transaction hash: 8 to 128 letters, digits, ":", "_" or "-".' };
  return { ok: true, hash: value };
}

/** The network explorer's page for a transaction, when the network is known. */
export function txExplorerUrl(networkId: string | null | undefined, hash: string): string | undefined {
  const network = findNetwork(networkId);
  return network ? network.explorerTx.replace('{tx}', encodeURIComponent(hash)) : undefined;
}
