import { chainEnvPrefix } from '../../config/chain-settings';
import type { ConnectedChain } from '../chain/chain-connections';
import { EvmNode } from '../../chain-core/evm-node';
import { UtxoNode } from '../../chain-core/utxo-node';
import type { ReserveDepositAddress } from './reserves.repository';

/** A token read on a network: the network's own coin (no contract) or an ERC-20, with its decimals. */
export interface HeldToken {
  token: string;
  contract: string | null;
  decimals: number;
}

/** One token's coins on one network, in base units. */
export interface TokenHoldings {
  decimals: number;
  /** Null: no hot wallet configured on the network. */
  hot: bigint | null;
  /** On every deposit address. */
  deposits: bigint;
  /** The part of `deposits` already inside `hot` (counted once). */
  depositsInHot: bigint;
  /** Per cold address, in the configured order. */
  cold: Array<{ address: string; amount: bigint }>;
}

export interface NetworkHoldings {
  /** The node wallet's name or the hot address read; null when none is configured. */
  hotWallet: string | null;
  /** How the figures were read, for people (e.g. deposit addresses inside the hot wallet). */
  note: string | null;
  byToken: Map<string, TokenHoldings>;
}

/**
 * What one connected network holds of `tokens`: the hot wallet, the customers' deposit addresses and the cold
 * addresses, read from its node (read-only: nothing is signed or sent). Throws ChainRpcError when the node does not
 * answer.
 */
export function readHoldings(
  chain: ConnectedChain,
  tokens: HeldToken[],
  deposits: ReserveDepositAddress[],
  /** The signer's hot address (EVM) or hot node wallet (UTXO); null: no signer on the network. */
  hotAddress: string | null,
): Promise<NetworkHoldings> {
  if (chain.node instanceof UtxoNode) return readUtxoHoldings(chain, chain.node, tokens, deposits, hotAddress);
  if (chain.node instanceof EvmNode) return readEvmHoldings(chain, chain.node, tokens, deposits, hotAddress);
  throw new Error(`${chain.network}: no holdings reader for its node`);
}

/**
 * UTXO family: the signer's hot node wallet (`getbalance`, read-only); deposit addresses whose keys it holds (its
 * descriptor is the private counterpart of the XPUB) are inside that balance — told from `listunspent` by their
 * scripts. Any other deposit address, and the cold addresses, are read from the UTXO set in one `scantxoutset`.
 */
async function readUtxoHoldings(
  chain: ConnectedChain,
  node: UtxoNode,
  tokens: HeldToken[],
  deposits: ReserveDepositAddress[],
  hotWallet: string | null,
): Promise<NetworkHoldings> {
  const cold = chain.coldAddresses ?? [];
  const wallet = hotWallet ? node.wallet(hotWallet) : undefined;
  let hot: bigint | null = null;
  let depositsInHot = 0n;
  let outside = deposits;
  if (wallet) {
    hot = await wallet.balance();
    // Addresses are derived in order from each key: when the wallet holds the newest one of a key, it holds them all.
    const owned = new Set<string>();
    for (const [fingerprint, newest] of newestPerKey(deposits)) if (await wallet.owns(newest.address)) owned.add(fingerprint);
    if (owned.size) {
      const scripts = new Set(deposits.filter((d) => owned.has(d.keyFingerprint)).map((d) => d.matchKey.toLowerCase()));
      for (const output of await wallet.unspent()) if (scripts.has(output.matchKey)) depositsInHot += output.amountBase;
      outside = deposits.filter((d) => !owned.has(d.keyFingerprint));
    }
  }
  const scanned = await node.addressBalances([...new Set([...cold, ...outside.map((d) => d.address)])]);
  const depositsOutside = outside.reduce((sum, d) => sum + (scanned.get(d.address) ?? 0n), 0n);
  const byToken = new Map<string, TokenHoldings>();
  for (const token of tokens) {
    byToken.set(token.token, {
      decimals: token.decimals,
      hot,
      deposits: depositsInHot + depositsOutside,
      depositsInHot,
      cold: cold.map((address) => ({ address, amount: scanned.get(address) ?? 0n })),
    });
  }
  const walletName = hotWallet ? `the node wallet "${hotWallet}"` : '';
  let note: string | null = null;
  if (!wallet) note = `No hot wallet configured (${envName(chain, 'SIGNER_URL')}): deposit addresses read from the UTXO set.`;
  else if (deposits.length && !outside.length) {
    note = `Deposit addresses held by ${walletName} (its descriptor matches the XPUB): counted inside the hot figure.`;
  } else if (outside.length) {
    const count = outside.length === 1 ? '1 deposit address' : `${outside.length} deposit addresses`;
    note = `${count} not held by ${walletName} (its descriptor does not match the XPUB): read from the UTXO set.`;
  }
  return { hotWallet, note, byToken };
}

/**
 * EVM family: the signer's hot address, every deposit address and the cold addresses, each with its native
 * balance and the `balanceOf` of each ERC-20 — batched, at one block.
 */
async function readEvmHoldings(
  chain: ConnectedChain,
  node: EvmNode,
  tokens: HeldToken[],
  deposits: ReserveDepositAddress[],
  hotAddress: string | null,
): Promise<NetworkHoldings> {
  const cold = chain.coldAddresses ?? [];
  const addresses = [...new Set([...(hotAddress ? [hotAddress] : []), ...deposits.map((d) => d.address), ...cold].map((a) => a.toLowerCase()))];
  const contracts = tokens.flatMap((t) => (t.contract ? [t.contract.toLowerCase()] : []));
  const { block, balances } = await node.balances(addresses, contracts);
  const amount = (address: string, token: HeldToken) => {
    const held = balances.get(address.toLowerCase());
    if (!held) return 0n;
    return token.contract ? (held.tokens.get(token.contract.toLowerCase()) ?? 0n) : held.native;
  };
  const byToken = new Map<string, TokenHoldings>();
  for (const token of tokens) {
    byToken.set(token.token, {
      decimals: token.decimals,
      hot: hotAddress ? amount(hotAddress, token) : null,
      deposits: deposits.reduce((sum, d) => sum + amount(d.address, token), 0n),
      depositsInHot: 0n,
      cold: cold.map((address) => ({ address, amount: amount(address, token) })),
    });
  }
  const note = hotAddress ? `Read at block ${block}.` : `No hot address (${envName(chain, 'SIGNER_URL')}); read at block ${block}.`;
  return { hotWallet: hotAddress, note, byToken };
}

/** The newest deposit address of each account key (by fingerprint). */
function newestPerKey(deposits: ReserveDepositAddress[]): Map<string, ReserveDepositAddress> {
  const newest = new Map<string, ReserveDepositAddress>();
  for (const deposit of deposits) {
    const known = newest.get(deposit.keyFingerprint);
    if (!known || deposit.derivationIndex > known.derivationIndex) newest.set(deposit.keyFingerprint, deposit);
  }
  return newest;
}

function envName(chain: ConnectedChain, setting: string): string {
  return `${chainEnvPrefix(chain.network)}${setting}`;
}
