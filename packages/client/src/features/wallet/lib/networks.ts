import type { TokenNetworkDto, WalletToken } from '../../../api/endpoints';

/** A token's networks (a cached token list from before networks existed has none: then nothing to choose). */
export function networksOf(token: WalletToken): TokenNetworkDto[] {
  return Array.isArray(token.networks) ? token.networks : [];
}

/**
 * The assets one Receive address takes: `token` and every other wallet token whose `network` gives the customer the
 * same address (on an EVM network, ETH and its ERC-20 tokens share it), so Receive names them all rather than warning
 * on each token's screen that the others would be lost.
 */
export function assetsAtAddress(token: WalletToken, tokens: WalletToken[], network: string | undefined, address: string): WalletToken[] {
  if (!network || !address) return [token];
  return [token, ...tokens.filter((other) => other.id !== token.id && networksOf(other).some((n) => n.network === network && n.address === address))];
}

/** The network preselected for a send: the only one, else none (the customer must choose). */
export function defaultSendNetwork(token: WalletToken): string {
  const list = networksOf(token);
  return list.length === 1 ? list[0].network : '';
}

/** Shortens a long address for lists: first 8 and last 6 characters. */
export function shortAddress(address: string): string {
  return address.length > 20 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}

/**
 * What a Receive QR code holds: the address, and on XRP the destination tag the way wallets read it (`address?dt=tag`).
 * Elsewhere the address alone: the memo is shown beside it to type in.
 */
export function receiveUri(network: string | undefined, address: string, memo: string | undefined): string {
  return network === 'xrp' && memo ? `${address}?dt=${memo}` : address;
}
