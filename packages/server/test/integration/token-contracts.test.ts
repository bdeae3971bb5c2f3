import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { rowsOf } from '../../src/db/rows';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, startTestApp, type TestApp } from '../support/test-app';

const DEPOSIT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON_DEPOSIT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** Tether's contracts on BNB Smart Chain and Polygon (checksummed). */
const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955';
const USDT_POLYGON = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

/**
 * The ERC-20 contract of a token's network row (issue 24): add-token and edit-token take `contractAddress` on EVM
 * networks only, validated there (0x + 40 hex, checksum); get-tokens answers it and token_networks stores it. No chain
 * node is configured here, so no decimals are read (they stay null).
 */
describe.each(DATABASE_KINDS)('token contract addresses on %s', (kind) => {
  let t: TestApp;
  let db: Database;
  let admin: string;

  const addToken = (body: Record<string, unknown>) => t.http.post('/api/crypto/add-token/').set(bearer(admin)).send(body);
  const editToken = (body: Record<string, unknown>) => t.http.put('/api/admin/edit-token/').set(bearer(admin)).send(body);
  const tetherRows = async () =>
    ((await t.http.get('/api/admin/get-tokens').set(bearer(admin)).expect(200)).body as Array<Record<string, string | null>>).filter(
      (row) => row.name === 'tether',
    );
  const stored = async (id: string) =>
    rowsOf(await db.execute(sql`select network, contract_address, contract_decimals from token_networks where id = ${id}`))[0] as {
      network: string;
      contract_address: string | null;
      contract_decimals: number | null;
    };

  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.get(DATABASE);
    admin = (await loginAdmin(t.http)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['not an address', 'hello', 'This is not a valid BNB Smart Chain contract address.'],
    ['39 hex digits', '0x55d398326f99059fF775485246999027B319795', 'This is not a valid BNB Smart Chain contract address.'],
    ['no 0x', '55d398326f99059fF775485246999027B3197955', 'This is not a valid BNB Smart Chain contract address.'],
    [
      'a wrong checksum',
      '0x55d398326f99059fF775485246999027B3197955'.replace('fF', 'ff'),
      'This BNB Smart Chain contract address has an invalid checksum (check for a mistyped character).',
    ],
    ['too long', `0x${'a'.repeat(63)}`, 'The contract address is too long.'],
    ['not text', 42, 'Contract address must be text.'],
  ])('add-token refuses %s as a contract (400, nothing stored)', async (_case, contractAddress, message) => {
    const response = await addToken({ name: 'tether', address: DEPOSIT, network: 'bsc', contractAddress }).expect(400);
    expect(response.body.error).toBe(message);
    expect((await tetherRows()).map((row) => row.network)).toEqual(['ethereum']);
  });

  it('add-token refuses a contract on a network without contracts', async () => {
    const response = await addToken({ name: 'tether', address: TRON_DEPOSIT, network: 'tron', contractAddress: USDT_BSC }).expect(400);
    expect(response.body.error).toBe('Tron (TRC-20) has no token contracts: leave the contract address empty.');
    expect((await tetherRows()).map((row) => row.network)).toEqual(['ethereum']);
  });

  it('add-token stores a valid contract on the network row; get-tokens answers it', async () => {
    const added = await addToken({ name: 'tether', address: DEPOSIT, network: 'bsc', contractAddress: USDT_BSC }).expect(201);
    expect(added.body.token).toMatchObject({ name: 'tether', network: 'bsc', address: DEPOSIT, contractAddress: USDT_BSC });
    expect(await stored(added.body.token._id)).toEqual({ network: 'bsc', contract_address: USDT_BSC, contract_decimals: null });
    expect(await tetherRows()).toEqual([
      expect.objectContaining({ network: 'ethereum', contractAddress: null }),
      expect.objectContaining({ _id: added.body.token._id, network: 'bsc', contractAddress: USDT_BSC }),
    ]);
  });

  it('edit-token: a bad contract is refused and the stored one kept; absent keeps it, a new one replaces it, an empty one removes it', async () => {
    const bsc = (await tetherRows()).find((row) => row.network === 'bsc')!;
    const edit = (contract?: string) =>
      editToken({ token: 'tether', tokenId: bsc._id, address: DEPOSIT, ...(contract === undefined ? {} : { contractAddress: contract }) });

    expect((await edit('0x1234').expect(400)).body.error).toBe('This is not a valid BNB Smart Chain contract address.');
    expect((await stored(bsc._id!)).contract_address).toBe(USDT_BSC);

    expect((await edit().expect(200)).body.token.contractAddress).toBe(USDT_BSC);
    expect((await edit(` ${USDT_POLYGON} `).expect(200)).body.token.contractAddress).toBe(USDT_POLYGON);
    expect((await stored(bsc._id!)).contract_address).toBe(USDT_POLYGON);
    expect((await edit('').expect(200)).body.token.contractAddress).toBeNull();
    expect(await stored(bsc._id!)).toEqual({ network: 'bsc', contract_address: null, contract_decimals: null });
  });

  it('edit-token: moving a row to another network drops its contract unless a new one is given', async () => {
    const bsc = (await tetherRows()).find((row) => row.network === 'bsc')!;
    await editToken({ token: 'tether', tokenId: bsc._id, address: DEPOSIT, contractAddress: USDT_BSC }).expect(200);
    const moved = await editToken({ token: 'tether', tokenId: bsc._id, address: DEPOSIT, network: 'polygon' }).expect(200);
    expect(moved.body.token).toMatchObject({ network: 'polygon', contractAddress: null });
    const withContract = await editToken({ token: 'tether', tokenId: bsc._id, address: DEPOSIT, network: 'arbitrum', contractAddress: USDT_POLYGON }).expect(
      200,
    );
    expect(withContract.body.token).toMatchObject({ network: 'arbitrum', contractAddress: USDT_POLYGON });
    expect(await stored(bsc._id!)).toEqual({ network: 'arbitrum', contract_address: USDT_POLYGON, contract_decimals: null });
  });
});
