import { and, eq, isNull } from 'drizzle-orm';
import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import type { Executor } from '../db/database';
import { supportedTokens, tokenNetworks, transactions } from '../db/schema';
import type { ConnectedChain } from '../modules/chain/chain-connections';
import { ChainRpcError, type JsonRpcClient } from './json-rpc';
import { type PayoutRequest, readApprovedPayment } from './signer-contract';

/** An approved EVM payment: the native coin (`contract` null) or an ERC-20 `transfer(address, amount)` on `contract`. */
export interface ApprovedEvmPayment {
  address: string;
  amountBase: bigint;
  contract: string | null;
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The calldata of `transfer(to, amount)`. */
export function transferCalldata(to: string, amountBase: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, amountBase] });
}

/** The recipient and amount of `transfer(to, amount)` calldata; undefined for any other call. */
export function decodeTransferCalldata(data: Hex | undefined): { to: string; amountBase: bigint } | undefined {
  if (!data || data === '0x') return undefined;
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data });
    if (call.functionName !== 'transfer') return undefined;
    const [to, amountBase] = call.args;
    // Canonical encoding only: re-encoding gives the same bytes (no trailing data smuggled in).
    if (transferCalldata(to, amountBase).toLowerCase() !== data.toLowerCase()) return undefined;
    return { to, amountBase };
  } catch {
    return undefined;
  }
}

/**
 * Whether a signed transaction (as parsed back) pays exactly `payment`: the native coin straight to the address with
 * no data, or no value to the token contract with `transfer(address, amount)` as its only call.
 */
export function paysExactly(parsed: { to?: string | null; value?: bigint; data?: Hex }, payment: ApprovedEvmPayment): boolean {
  if (!parsed.to) return false;
  if (payment.contract === null) {
    return sameAddress(parsed.to, payment.address) && parsed.value === payment.amountBase && (!parsed.data || parsed.data === '0x');
  }
  const call = decodeTransferCalldata(parsed.data);
  return (
    sameAddress(parsed.to, payment.contract) &&
    (parsed.value ?? 0n) === 0n &&
    !!call &&
    sameAddress(call.to, payment.address) &&
    call.amountBase === payment.amountBase
  );
}

/** The withdrawal's token and its ERC-20 contract on `network` (null: the token has no contract there). */
async function withdrawalToken(transactionId: string, network: string, executor: Executor): Promise<{ token: string; contract: string | null } | undefined> {
  const [row] = await executor
    .select({ token: transactions.token, contract: tokenNetworks.contractAddress })
    .from(transactions)
    .leftJoin(supportedTokens, and(eq(supportedTokens.coinId, transactions.token), isNull(supportedTokens.deletedAt)))
    .leftJoin(tokenNetworks, and(eq(tokenNetworks.tokenId, supportedTokens.id), eq(tokenNetworks.network, network)))
    .where(eq(transactions.id, transactionId));
  return row && { token: row.token, contract: row.contract ?? null };
}

/** `decimals()` of an ERC-20 contract, read from the node (selector 0x313ce567). */
export async function contractDecimals(rpc: JsonRpcClient, contract: string): Promise<number> {
  const answer = await rpc.call<unknown>('eth_call', [{ to: contract, data: '0x313ce567' }, 'latest']);
  if (typeof answer !== 'string' || !/^0x[0-9a-f]{64}$/i.test(answer)) throw new ChainRpcError('decimals() answered nothing (not an ERC-20 contract?)');
  const decimals = Number(BigInt(answer));
  if (decimals > 36) throw new ChainRpcError(`decimals() answered ${decimals}`);
  return decimals;
}

/** The `eth_call` of `balanceOf(owner)` on an ERC-20 contract (batched by the sweep planner). */
export function balanceOfCall(contract: string, owner: string): { method: string; params: unknown[] } {
  return {
    method: 'eth_call',
    params: [{ to: contract, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as Hex] }) }, 'latest'],
  };
}

/** The answer of a `balanceOf` call as an amount. */
export function balanceOfAnswer(answer: unknown): bigint {
  if (typeof answer !== 'string' || !/^0x[0-9a-f]{64}$/i.test(answer)) throw new ChainRpcError('balanceOf() answered nothing (not an ERC-20 contract?)');
  return BigInt(answer);
}

/** `balanceOf(owner)` of an ERC-20 contract, read from the node. */
export async function tokenBalance(rpc: JsonRpcClient, contract: string, owner: string): Promise<bigint> {
  const call = balanceOfCall(contract, owner);
  return balanceOfAnswer(await rpc.call<unknown>(call.method, call.params));
}

/**
 * The EVM signer's view of a withdrawal (see `readApprovedPayment`): a token with a contract on the network is paid
 * by that contract's `transfer`, its amount counted in the decimals the contract itself answers; the network's own coin
 * as before. Anything else is refused with the reason.
 */
export async function readApprovedEvmPayment(
  request: PayoutRequest,
  chain: Pick<ConnectedChain, 'network' | 'nativeCoins' | 'nativeDecimals'>,
  executor: Executor,
  rpc: JsonRpcClient,
): Promise<ApprovedEvmPayment> {
  const withdrawal = await withdrawalToken(request.transactionId, chain.network, executor);
  // The network's own coin, or a withdrawal the native rules refuse (no such withdrawal, a token without a contract).
  if (!withdrawal || withdrawal.contract === null || chain.nativeCoins.includes(withdrawal.token)) {
    return { ...(await readApprovedPayment(request, chain, executor, sameAddress)), contract: null };
  }
  const { contract } = withdrawal;
  const token = { network: chain.network, nativeCoins: [withdrawal.token], nativeDecimals: await contractDecimals(rpc, contract) };
  return { ...(await readApprovedPayment(request, token, executor, sameAddress)), contract };
}
