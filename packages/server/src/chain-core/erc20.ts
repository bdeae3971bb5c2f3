import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { ChainRpcError, type JsonRpcClient } from './json-rpc';

/** ERC-20 on the EVM networks: the `transfer` calldata (encoded, decoded, checked), `decimals()` and `balanceOf`. */

/** An approved EVM payment: the native coin (`contract` null) or an ERC-20 `transfer(address, amount)` on `contract`. */
export interface ApprovedEvmPayment {
  address: string;
  amountBase: bigint;
  contract: string | null;
  /** A withdrawal whose fee is fixed: the platform pays the gas (see ApprovedPayment). Absent: a sweep's payment. */
  platformPaysFee?: boolean;
}

/** EVM addresses compare without their checksum case. */
export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

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
