import { sql } from 'drizzle-orm';
import type { SqlExecutor } from '../db/sql-executor';

/**
 * The next nonce of `address` on `network`, reserved in the caller's transaction (row-locked until it ends): the larger
 * of the one stored and the node's `pending` count (the operator may have sent from the address meanwhile). Payouts,
 * gas top-ups and sweeps all take their nonces here, so two transactions from one address never share one.
 */
export async function reserveEvmNonce(executor: SqlExecutor, network: string, address: string, pending: bigint): Promise<bigint> {
  const key = address.toLowerCase();
  await executor.execute(sql`insert into evm_nonces (network, address, next_nonce) values (${network}, ${key}, ${pending.toString()}) on conflict do nothing`);
  const result = (await executor.execute(
    sql`select next_nonce::text as n from evm_nonces where network = ${network} and address = ${key} for update`,
  )) as unknown as { rows: Array<{ n: string }> };
  const nonce = [BigInt(result.rows[0].n), pending].reduce((a, b) => (a > b ? a : b));
  await executor.execute(sql`update evm_nonces set next_nonce = ${(nonce + 1n).toString()} where network = ${network} and address = ${key}`);
  return nonce;
}

/**
 * Gives `nonce` of `address` back (in the caller's transaction) when it is the last one reserved: true. False when a
 * later one was reserved since, which would leave a gap no later transaction can pass.
 */
export async function releaseEvmNonce(executor: SqlExecutor, network: string, address: string, nonce: bigint): Promise<boolean> {
  const result = (await executor.execute(
    sql`update evm_nonces set next_nonce = ${nonce.toString()} where network = ${network} and address = ${address.toLowerCase()} and next_nonce = ${(nonce + 1n).toString()} returning next_nonce`,
  )) as unknown as { rows: unknown[] };
  return result.rows.length === 1;
}
