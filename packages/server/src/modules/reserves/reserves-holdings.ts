import { chainEnvPrefix } from '../../config/chain-settings';
import type { ConnectedChain } from '../chain/chain-connections';
import { EvmNode } from '../../chain-core/evm-node';
import { UtxoNode, type UtxoWallet } from '../../chain-core/utxo-node';
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

/**
 * Why a figure is missing or how it was read, in words for people; with the operator guide's page that explains it
 * (under the repository's docs folder, served at /docs/<guide>) and the setting that changes it, when there is one.
 */
export interface ReserveNote {
  text: string;
  guide?: string;
  setting?: string;
}

export interface NetworkHoldings {
  /** The node wallet's name or the hot address read; null when none is configured. */
  hotWallet: string | null;
  /** How the figures were read (e.g. deposit addresses inside the hot wallet). */
  note: ReserveNote | null;
  byToken: Map<string, TokenHoldings>;
}

/** A network without a signer has no hot wallet: said in words, with the page that sets one up. */
function noSigner(chain: ConnectedChain, then: string): ReserveNote {
  return {
    text: `No hot wallet: no signer pays this network's withdrawals (they are paid by hand). ${then}`,
    guide: 'operate/signer.md',
    setting: envName(chain, 'SIGNER_URL'),
  };
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
 * UTXO family: the signer's hot node wallet (`getbalance`, read-only) holds the coins of the deposit addresses whose
 * keys it has (its descriptor is the private counterpart of the XPUB, over the range it imported). Every other deposit
 * coin, and the cold addresses, are read from the UTXO set in one `scantxoutset`. Each coin is counted once, by its
 * outpoint: one the wallet holds (listed by it, locked ones too) is in the hot figure, never again as a deposit — so
 * addresses past the imported range (the wallet does not grow it by itself) are read from the UTXO set while the
 * coins inside the range stay in the hot figure.
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
  const inWallet = new Set<string>();
  let coverage: WalletCoverage[] = [];
  if (wallet) {
    hot = await wallet.balance();
    const scripts = new Set(deposits.map((d) => d.matchKey.toLowerCase()));
    for (const coin of await wallet.coins()) {
      inWallet.add(coin.outpoint);
      if (scripts.has(coin.matchKey)) depositsInHot += coin.amountBase;
    }
    coverage = await walletCoverage(wallet, deposits);
    // A key whose every address the wallet holds needs no scan: its coins are all in the wallet.
    const whole = new Set(coverage.filter((key) => key.notHeld === 0).map((key) => key.fingerprint));
    outside = deposits.filter((d) => !whole.has(d.keyFingerprint));
  }
  const outsideAddresses = new Set(outside.map((d) => d.address));
  const scanned = await node.addressCoins([...new Set([...cold, ...outsideAddresses])]);
  let depositsOutside = 0n;
  const coldHeld = new Map(cold.map((address) => [address, 0n]));
  for (const coin of scanned) {
    if (coldHeld.has(coin.address)) coldHeld.set(coin.address, coldHeld.get(coin.address)! + coin.amountBase);
    if (outsideAddresses.has(coin.address) && !inWallet.has(coin.outpoint)) depositsOutside += coin.amountBase;
  }
  const byToken = new Map<string, TokenHoldings>();
  for (const token of tokens) {
    byToken.set(token.token, {
      decimals: token.decimals,
      hot,
      deposits: depositsInHot + depositsOutside,
      depositsInHot,
      cold: cold.map((address) => ({ address, amount: coldHeld.get(address) ?? 0n })),
    });
  }
  return { hotWallet, note: utxoNote(chain, hotWallet, deposits.length, coverage), byToken };
}

/** How much of one account key's deposit addresses the hot wallet holds. */
interface WalletCoverage {
  fingerprint: string;
  addresses: number;
  /** Addresses the wallet does not hold (past its imported range, or all of them when it holds another key). */
  notHeld: number;
  /** The wallet holds none of them: its descriptor is not the XPUB's counterpart. */
  otherKey: boolean;
}

/**
 * Per account key, which of its deposit addresses the wallet holds (`getaddressinfo` … `ismine`). Addresses are handed
 * out in index order and a wallet imports a range from 0: it holds a first run of them. The newest one says whether it
 * holds them all (the usual case: one call per key); otherwise the first one whether it holds any, and a binary search
 * where its range ends (for the note: the figures do not depend on it).
 */
async function walletCoverage(wallet: UtxoWallet, deposits: ReserveDepositAddress[]): Promise<WalletCoverage[]> {
  const byKey = new Map<string, ReserveDepositAddress[]>();
  for (const deposit of deposits) byKey.set(deposit.keyFingerprint, [...(byKey.get(deposit.keyFingerprint) ?? []), deposit]);
  const coverage: WalletCoverage[] = [];
  for (const [fingerprint, list] of byKey) {
    const ordered = list.sort((a, b) => a.derivationIndex - b.derivationIndex);
    const key = { fingerprint, addresses: ordered.length, notHeld: 0, otherKey: false };
    coverage.push(key);
    if (await wallet.owns(ordered[ordered.length - 1].address)) continue;
    if (!(await wallet.owns(ordered[0].address))) {
      Object.assign(key, { notHeld: ordered.length, otherKey: true });
      continue;
    }
    // ordered[low] is held, ordered[high] is not: narrow down to the first one not held.
    let [low, high] = [0, ordered.length - 1];
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      if (await wallet.owns(ordered[middle].address)) low = middle;
      else high = middle;
    }
    key.notHeld = ordered.length - high;
  }
  return coverage;
}

/** How the UTXO figures were read, for people, with the guide's page that explains it. */
function utxoNote(chain: ConnectedChain, hotWallet: string | null, addresses: number, coverage: WalletCoverage[]): ReserveNote | null {
  if (!hotWallet) return noSigner(chain, "The deposit addresses are read from the node's set of unspent outputs.");
  const walletName = `the node wallet "${hotWallet}"`;
  const count = (n: number) => (n === 1 ? '1 deposit address' : `${n} deposit addresses`);
  const otherKey = coverage.filter((key) => key.otherKey).reduce((sum, key) => sum + key.notHeld, 0);
  const pastRange = coverage.filter((key) => !key.otherKey).reduce((sum, key) => sum + key.notHeld, 0);
  const parts: string[] = [];
  if (otherKey) parts.push(`${count(otherKey)} not held by ${walletName} (its descriptor does not match the XPUB): read from the UTXO set.`);
  if (pastRange) {
    parts.push(
      `${count(pastRange)} of ${addresses} past the range ${walletName} holds (import the next range): read from the UTXO set; coins the wallet holds are counted once, in the hot figure.`,
    );
  }
  if (parts.length) return { text: parts.join(' '), guide: 'operate/signer.md' };
  if (addresses) {
    return {
      text: `Deposit addresses held by ${walletName} (its descriptor matches the XPUB): counted inside the hot figure.`,
      guide: 'operate/cold-wallets-and-reserves.md',
    };
  }
  return null;
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
  const note = hotAddress ? { text: `Read at block ${block}.` } : noSigner(chain, `Read at block ${block}.`);
  return { hotWallet: hotAddress, note, byToken };
}

function envName(chain: ConnectedChain, setting: string): string {
  return `${chainEnvPrefix(chain.network)}${setting}`;
}
