import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database';

/**
 * The next nonce of `address` on `network`, reserved in the caller's transaction (row-locked, `evm_nonces`): the
 * larger of the one stored and the node's pending count (the operator may have sent from the address meanwhile). The
 * hot signer and the cold path (another address) both take theirs here, so two payments never share one.
 */
export async function reserveEvmNonce(network: string, address: string, pending: bigint, executor: Executor): Promise<bigint> {
  const key = address.toLowerCase();
  await executor.execute(sql`insert into evm_nonces (network, address, next_nonce) values (${network}, ${key}, ${pending.toString()}) on conflict do nothing`);
  const result = (await executor.execute(
    sql`select next_nonce::text as n from evm_nonces where network = ${network} and address = ${key} for update`,
  )) as unknown as {
    rows: Array<{ n: string }>;
  };
  const nonce = [BigInt(result.rows[0].n), pending].reduce((a, b) => (a > b ? a : b));
  await executor.execute(sql`update evm_nonces set next_nonce = ${(nonce + 1n).toString()} where network = ${network} and address = ${key}`);
  return nonce;
}
