import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Anvil } from './anvil';
import { bearer, type TestApp } from './test-app';

/** The compiled test token (test/support/contracts/TestToken.sol): constructor (uint8 decimals, uint256 supply). */
const TEST_TOKEN = JSON.parse(readFileSync(join(__dirname, 'contracts', 'TestToken.json'), 'utf8')) as { bytecode: string };

/** One ABI-encoded uint256 word (hex, no 0x). */
const uint256 = (value: bigint) => value.toString(16).padStart(64, '0');
const addressWord = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');

/** Deploys the test token from anvil's first dev account (it holds the whole supply); returns the contract address. */
export async function deployTestToken(anvil: Anvil, decimals: number, supply: bigint): Promise<string> {
  const deployed = await anvil.sendData(TEST_TOKEN.bytecode + uint256(BigInt(decimals)) + uint256(supply));
  return deployed.contractAddress!;
}

/** `transfer(to, amount)` from a dev account (mined at once); returns the transaction hash. */
export async function transferTestToken(anvil: Anvil, contract: string, to: string, amount: bigint, from = anvil.accounts[0]): Promise<string> {
  return (await anvil.sendData(`0xa9059cbb${addressWord(to)}${uint256(amount)}`, contract, from)).hash;
}

/** `balanceOf(owner)`. */
export async function testTokenBalance(anvil: Anvil, contract: string, owner: string): Promise<bigint> {
  return BigInt(await anvil.rpc.call<string>('eth_call', [{ to: contract, data: `0x70a08231${addressWord(owner)}` }, 'latest']));
}

/**
 * Sets the token's contract on a network through the admin's Edit Token (its decimals are read from the chain), with
 * `address` as the row's own deposit address.
 */
export async function setTokenContract(t: TestApp, admin: string, coinId: string, network: string, contract: string, address: string): Promise<void> {
  const rows = (await t.http.get('/api/admin/get-tokens').set(bearer(admin)).expect(200)).body as Array<{ _id: string; name: string; network: string }>;
  const row = rows.find((r) => r.name === coinId && r.network === network);
  if (!row) throw new Error(`${coinId} has no row on ${network}`);
  await t.http.put('/api/admin/edit-token/').set(bearer(admin)).send({ token: coinId, tokenId: row._id, address, contractAddress: contract }).expect(200);
}
