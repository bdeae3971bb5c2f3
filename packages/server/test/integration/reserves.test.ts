import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { sql } from 'drizzle-orm';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReserveNetworkDto, ReservesDto, ReserveTokenDto } from '@coinpurse/contract';
import { DATABASE, type Database } from '../../src/db/database';
import { ChainConnections } from '../../src/modules/chain/chain-connections';
import { deriveDepositAddress } from '../../src/modules/chain/derivation';
import { ChainWatcherService } from '../../src/modules/chain/chain-watcher.service';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import { plain, toMoney } from '../../src/modules/ledger/money';
import { PayoutsService } from '../../src/modules/payouts/payouts.service';
import { readHoldings } from '../../src/modules/reserves/reserves-holdings';
import { ReservesRepository } from '../../src/modules/reserves/reserves.repository';
import { ReservesService } from '../../src/modules/reserves/reserves.service';
import { Anvil } from '../support/anvil';
import { RegtestLitecoind, litecoindInstalled } from '../support/litecoind';
import { seedCoins } from '../support/market';
import { sample, parseMetrics } from '../support/prometheus';
import { type SignedTestApp, SIGNER_DATABASE_KINDS, skipOnPglite, startTestAppWithSigner } from '../support/signer-process';
import { ADMIN_EMAIL, bearer, loginAdmin, signUp, startTestApp } from '../support/test-app';
import { supportTokens } from '../support/wallet';

const MNEMONIC = mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');
/** BIP84 m/84'/1'/0' of the test mnemonic: the deposit key (TPUB) and its private counterpart, which the hot wallet imports. */
const LTC_ACCOUNT = HDKey.fromMasterSeed(MNEMONIC, { private: 0x04358394, public: 0x043587cf }).derive("m/84'/1'/0'");
const TPUB = LTC_ACCOUNT.publicExtendedKey;
const TPRV = LTC_ACCOUNT.privateExtendedKey;
/** m/44'/60'/0': the EVM deposit key. */
const XPUB = HDKey.fromMasterSeed(MNEMONIC).derive("m/44'/60'/0'").publicExtendedKey;
/** Anvil's dev account 1 (published test key): the EVM hot address. */
const HOT_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const ETH_COLD = '0x00000000000000000000000000000000c01dc01d';
const ETH = 10n ** 18n;
const TEST_TOKEN = JSON.parse(readFileSync(join(__dirname, '../support/contracts/TestToken.json'), 'utf8')) as { bytecode: string };
const uint256 = (value: bigint) => value.toString(16).padStart(64, '0');
/** A node's JSON number of coins (8 decimals) as the exact decimal the screen shows. */
const coins = (value: number) => plain(toMoney(value.toFixed(8)));
const wei = (value: bigint) => plain(toMoney(value.toString()).div(toMoney(10).pow(18)));

/**
 * The Reserves screen against real nodes: a regtest litecoind whose hot wallet ("hot") holds the deposit keys (its
 * descriptor is the private counterpart of the XPUB) and a cold address watched from another wallet; an anvil chain
 * with the hot address of a key file, a cold address and an ERC-20. The figures equal the nodes' balances; drained
 * below liabilities, the metric shows the shortfall and the alert fires once per episode.
 */
skipOnPglite('reserves on a regtest litecoind and anvil');

describe.skipIf(!litecoindInstalled).each(SIGNER_DATABASE_KINDS)('reserves on a regtest litecoind and anvil on %s', () => {
  let ltc: RegtestLitecoind;
  let hot: JsonRpcClient;
  let anvil: Anvil;
  let t: SignedTestApp;
  let db: Database;
  let reserves: ReservesService;
  let watcher: ChainWatcherService;
  let admin = '';
  let ltcCold = '';
  let hotLtcAddress = '';
  let contract = '';
  const keyDir = mkdtempSync(join(tmpdir(), 'coinpurse-reserves-'));
  const logLines: string[] = [];

  beforeAll(async () => {
    ltc = await RegtestLitecoind.start();
    await ltc.node.call('createwallet', ['hot']);
    hot = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/hot`, rpcUrlForLogs: 'hot', timeoutMs: 60_000 });
    const descriptor = `wpkh(${TPRV}/0/*)`;
    const { checksum } = await ltc.node.call<{ checksum: string }>('getdescriptorinfo', [descriptor]);
    const [imported] = await hot.call<Array<{ success: boolean }>>('importmulti', [
      [{ desc: `${descriptor}#${checksum}`, range: [0, 99], timestamp: 'now', keypool: false }],
    ]);
    expect(imported.success).toBe(true);
    await ltc.node.call('createwallet', ['cold']);
    const cold = new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/cold`, rpcUrlForLogs: 'cold', timeoutMs: 60_000 });
    ltcCold = await cold.call<string>('getnewaddress', ['', 'bech32']);
    hotLtcAddress = await hot.call<string>('getnewaddress', ['', 'bech32']);
    await ltc.send(hotLtcAddress, '5');
    await ltc.send(ltcCold, '0.25');
    await ltc.mine(1);

    anvil = await Anvil.start();
    const keyFile = join(keyDir, 'ethereum.key');
    writeFileSync(keyFile, `${HOT_KEY}\n`);
    chmodSync(keyFile, 0o600);
    await anvil.rpc.call('anvil_setBalance', [HOT_ADDRESS, `0x${(3n * ETH).toString(16)}`]);
    await anvil.rpc.call('anvil_setBalance', [ETH_COLD, `0x${(2n * ETH).toString(16)}`]);

    const logs = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await startTestAppWithSigner(
      {
        CHAIN_LITECOIN_RPC_URL: ltc.rpcUrl,
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        CHAIN_LITECOIN_CONFIRMATIONS: '1',
        CHAIN_LITECOIN_WALLET: 'hot',
        CHAIN_LITECOIN_COLD_ADDRESSES: ltcCold,
        CHAIN_ETHEREUM_RPC_URL: anvil.rpcUrl,
        CHAIN_ETHEREUM_XPUB: XPUB,
        CHAIN_ETHEREUM_CHAIN: 'regtest',
        CHAIN_ETHEREUM_CONFIRMATIONS: '1',
        CHAIN_ETHEREUM_KEY_FILE: keyFile,
        CHAIN_ETHEREUM_COLD_ADDRESSES: ETH_COLD,
        LOG_LEVEL: 'info',
      },
      { logDestination: logs },
    );
    // The test drives the checks, polls and runs itself.
    reserves = t.app.get(ReservesService);
    reserves.stop();
    watcher = t.app.get(ChainWatcherService);
    watcher.stop();
    t.app.get(PayoutsService).stop();
    db = t.app.get(DATABASE);
    await seedCoins(t, { bitcoin: '50000', ethereum: '2500', tether: '1', litecoin: '80' });
    await supportTokens(t, ['bitcoin', 'ethereum', 'tether', 'litecoin']);
    admin = (await loginAdmin(t.http)).token;

    // The ERC-20 (6 decimals) as tether on ethereum; 500 on the hot address, 250 on the cold one.
    contract = (await anvil.sendData(TEST_TOKEN.bytecode + uint256(6n) + uint256(10n ** 12n))).contractAddress!;
    const tether = (
      (await t.http.get('/api/admin/get-tokens').set(bearer(admin)).expect(200)).body as Array<{ _id: string; name: string; network: string }>
    ).find((row) => row.name === 'tether' && row.network === 'ethereum')!;
    await t.http
      .put('/api/admin/edit-token/')
      .set(bearer(admin))
      .send({ token: 'tether', tokenId: tether._id, address: anvil.accounts[1], contractAddress: contract })
      .expect(200);
    await transferToken(HOT_ADDRESS, 500_000_000n);
    await transferToken(ETH_COLD, 250_000_000n);
    await watcher.pollOnce('litecoin');
    await watcher.pollOnce('ethereum');
  });

  afterAll(async () => {
    await t?.close();
    await anvil?.close();
    await ltc?.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const transferToken = (to: string, units: bigint) => anvil.sendData(`0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${uint256(units)}`, contract);
  const tokenBalance = async (address: string) =>
    BigInt(await anvil.rpc.call<string>('eth_call', [{ to: contract, data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}` }, 'latest']));
  const ethBalance = async (address: string) => BigInt(await anvil.rpc.call<string>('eth_getBalance', [address, 'latest']));
  const depositAddress = async (token: string, coinId: string) => {
    const tokens = (await t.http.get('/api/crypto/get-wallet-tokens').set(bearer(token)).expect(200)).body as Array<{ id: string; address: string }>;
    return tokens.find((x) => x.id === coinId)!.address;
  };
  const credited = async (network: string, address: string) => {
    for (let i = 0; i < 6; i++) {
      await watcher.pollOnce(network);
      const rows = (await db.execute(sql`select state from chain_deposits where network = ${network} and address = ${address}`)) as unknown as {
        rows: Array<{ state: string }>;
      };
      if (rows.rows.length && rows.rows.every((r) => r.state === 'credited')) return;
    }
    throw new Error(`the deposit to ${address} on ${network} was not credited`);
  };
  const screen = async () => (await t.http.get('/api/admin/reserves').set(bearer(admin)).expect(200)).body as ReservesDto;
  const row = (figures: ReservesDto, token: string) => figures.tokens.find((r) => r.token === token) as ReserveTokenDto;
  const alerts = async (action: string, token: string) =>
    (
      (await db.execute(
        sql`select count(*)::int as n from audit_log where action = ${action} and target_type = 'reserves' and target_id = ${token}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0].n;
  const mails = async (subject: string) =>
    (
      (await db.execute(sql`select count(*)::int as n from mail_outbox where "to" = ${ADMIN_EMAIL} and subject = ${subject}`)) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows[0].n;
  const metrics = async () => parseMetrics((await t.http.get('/api/metrics').expect(200)).text);

  it('shows per token the hot wallet, deposit addresses and cold addresses as the nodes report them, next to the ledger liabilities', async () => {
    // A customer deposits LTC, ETH and the token on chain; each is credited.
    const customer = await signUp(t.http);
    const ltcAddress = await depositAddress(customer.token, 'litecoin');
    await ltc.send(ltcAddress, '1.5');
    await ltc.mine(1);
    await credited('litecoin', ltcAddress);
    const evmAddress = await depositAddress(customer.token, 'ethereum');
    await anvil.sendEth(evmAddress, (3n * ETH) / 2n);
    await transferToken(evmAddress, 100_000_000n);
    await credited('ethereum', evmAddress);
    // Then asks to withdraw 0.5 LTC (held: pending), and an admin credits BTC, a network without a node.
    await t.http
      .post('/api/crypto/send-crypto/litecoin')
      .set(bearer(customer.token))
      .send({ transferData: { address: await ltc.newAddress(), amount: 40, symbol: 'ltc', coinAmount: '0.5' } })
      .expect(201);
    await t.http
      .post(`/api/admin/update-balance/${customer._id}`)
      .set(bearer(admin))
      .send({ token: 'bitcoin', amount: 100, type: 'yes', msg: 'test funding', coinAmount: '0', symbol: 'btc' })
      .expect(200);

    await reserves.check();
    const figures = await screen();
    expect(figures.asOf).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Litecoin: the deposit sits in the hot wallet (its keys), counted once; the cold address from the UTXO set.
    const hotLtc = coins(await hot.call<number>('getbalance'));
    expect(toMoney(hotLtc).gte(6.5)).toBe(true);
    const litecoin = row(figures, 'litecoin');
    expect(litecoin.networks).toEqual([
      {
        network: 'litecoin',
        name: 'Litecoin',
        state: 'read',
        note: expect.stringContaining('Deposit addresses held by the node wallet "hot" (its descriptor matches the XPUB)'),
        guide: 'operate/cold-wallets-and-reserves.md',
        setting: null,
        hotWallet: 'hot',
        hot: hotLtc,
        deposits: '1.5',
        depositsInHot: '1.5',
        depositAddresses: 1,
        cold: '0.25',
        coldAddresses: [{ address: ltcCold, balance: '0.25' }],
        total: plain(toMoney(hotLtc).add('0.25')),
      } satisfies ReserveNetworkDto,
    ]);
    expect(litecoin).toMatchObject({
      symbol: 'ltc',
      name: 'Litecoin',
      holdings: plain(toMoney(hotLtc).add('0.25')),
      complete: true,
      customerBalance: '1',
      pendingWithdrawals: '0.5',
      liabilities: '1.5',
      difference: plain(toMoney(hotLtc).add('0.25').sub('1.5')),
      shortfall: false,
    });

    // Ethereum: the hot address, the deposit address and the cold address, each as eth_getBalance says.
    const ethereum = row(figures, 'ethereum');
    const [hotWei, depositWei, coldWei] = [await ethBalance(HOT_ADDRESS), await ethBalance(evmAddress), await ethBalance(ETH_COLD)];
    expect(depositWei).toBe((3n * ETH) / 2n);
    expect(ethereum.networks).toEqual([
      expect.objectContaining({
        network: 'ethereum',
        state: 'read',
        hotWallet: expect.stringMatching(new RegExp(`^${HOT_ADDRESS}$`, 'i')),
        hot: wei(hotWei),
        deposits: '1.5',
        depositsInHot: '0',
        depositAddresses: 1,
        cold: wei(coldWei),
        coldAddresses: [{ address: ETH_COLD, balance: '2' }],
        total: wei(hotWei + depositWei + coldWei),
      }),
    ]);
    expect(ethereum).toMatchObject({ liabilities: '1.5', complete: true, shortfall: false, difference: wei(hotWei + depositWei + coldWei - (3n * ETH) / 2n) });

    // The ERC-20 (tether on ethereum): balanceOf of the same addresses.
    expect(await tokenBalance(evmAddress)).toBe(100_000_000n);
    expect(row(figures, 'tether')).toMatchObject({
      networks: [expect.objectContaining({ network: 'ethereum', state: 'read', hot: '500', deposits: '100', cold: '250', total: '850' })],
      holdings: '850',
      liabilities: '100',
      difference: '750',
      complete: true,
      shortfall: false,
    });

    // Bitcoin has no node: liabilities only, holdings not connected, never a shortfall.
    expect(row(figures, 'bitcoin')).toMatchObject({
      networks: [
        // In words, with the guide's page and the setting (never the setting's name alone).
        expect.objectContaining({
          network: 'bitcoin',
          state: 'not_connected',
          hot: null,
          total: null,
          note: 'Not connected to a node: holdings are not read.',
          guide: 'operate/chain-nodes.md',
          setting: 'CHAIN_BITCOIN_RPC_URL',
        }),
      ],
      holdings: null,
      liabilities: '0.002',
      difference: null,
      complete: false,
      shortfall: false,
    });

    // The metric: the same figures.
    const families = await metrics();
    expect(sample(families, 'reserves_holdings', { network: 'litecoin', token: 'litecoin' })).toBeCloseTo(Number(litecoin.holdings), 8);
    expect(sample(families, 'reserves_holdings', { network: 'ethereum', token: 'tether' })).toBe(850);
    expect(sample(families, 'reserves_liabilities', { token: 'litecoin' })).toBe(1.5);
    expect(sample(families, 'reserves_shortfall', { token: 'litecoin' })).toBe(0);

    // Admins only.
    await t.http.get('/api/admin/reserves').set(bearer(customer.token)).expect(403);
  });

  it('reads deposit addresses from the UTXO set when the node wallet does not hold their keys', async () => {
    const chain = t.app.get(ChainConnections).get('litecoin')!;
    const deposits = await t.app.get(ReservesRepository).depositAddresses('litecoin');
    const read = await readHoldings(chain, [{ token: 'litecoin', contract: null, decimals: 8 }], deposits, 'cold');
    expect(read.note?.text).toContain('1 deposit address not held by the node wallet "cold"');
    // The deposit's coins are in the "hot" wallet, not "cold": read from the UTXO set, counted outside the hot figure.
    expect(read.byToken.get('litecoin')).toMatchObject({ deposits: 150_000_000n, depositsInHot: 0n, cold: [{ address: ltcCold, amount: 25_000_000n }] });
  });

  it('deposit addresses past the range the hot wallet imported: every coin counted once, inside the range or beyond it, locked or not', async () => {
    const chain = t.app.get(ChainConnections).get('litecoin')!;
    const [customer] = await t.app.get(ReservesRepository).depositAddresses('litecoin');
    expect(customer.derivationIndex).toBe(0);
    // The hot wallet imported indexes 0–99: the last address inside its range, the first one past it.
    const at = (index: number) => ({ ...deriveDepositAddress(chain.account, index), derivationIndex: index, keyFingerprint: customer.keyFingerprint });
    const [inside, beyond] = [at(99), at(100)];
    expect(await hot.call<{ ismine: boolean }>('getaddressinfo', [beyond.address])).toMatchObject({ ismine: false });
    const insideTx = await ltc.send(inside.address, '0.4');
    await ltc.send(beyond.address, '0.7');
    await ltc.mine(1);
    const read = () => readHoldings(chain, [{ token: 'litecoin', contract: null, decimals: 8 }], [customer, inside, beyond], 'hot');
    // The coins the hot wallet holds (the customer's 1.5 and the 0.4 inside its range) once, in its balance; the 0.7
    // past its range from the UTXO set; the cold address's 0.25.
    const expectOnce = async () => {
      const hotBase = BigInt(
        toMoney(coins(await hot.call<number>('getbalance')))
          .mul(1e8)
          .toFixed(),
      );
      const holdings = await read();
      const held = holdings.byToken.get('litecoin')!;
      expect(held).toMatchObject({ hot: hotBase, deposits: 260_000_000n, depositsInHot: 190_000_000n, cold: [{ address: ltcCold, amount: 25_000_000n }] });
      expect(held.hot! + held.deposits - held.depositsInHot).toBe(hotBase + 70_000_000n);
      expect(holdings.note).toEqual({
        text: '1 deposit address of 3 past the range the node wallet "hot" holds (import the next range): read from the UTXO set; coins the wallet holds are counted once, in the hot figure.',
        guide: 'operate/signer.md',
      });
    };
    await expectOnce();
    // A coin the wallet has locked (a payment funded, not sent yet) is in its balance but not in listunspent: still once.
    const vout = await ltc.outputTo(insideTx, inside.address);
    await hot.call('lockunspent', [false, [{ txid: insideTx, vout }]]);
    try {
      await expectOnce();
    } finally {
      await hot.call('lockunspent', [true, [{ txid: insideTx, vout }]]);
    }
  });

  it('drained below liabilities: the metric shows the shortfall, the alert fires once per episode (log, audit, mail)', async () => {
    const subject = 'ALERT: LTC reserves below customer liabilities';
    expect(await alerts('reserves.shortfall', 'litecoin')).toBe(0);
    // The hot wallet sends everything it holds elsewhere: 0.25 LTC (cold) left against 1.5 owed.
    await hot.call('sendtoaddress', [await ltc.newAddress(), coins(await hot.call<number>('getbalance')), '', '', true]);
    await ltc.mine(1);
    await reserves.check();
    const litecoin = row(await screen(), 'litecoin');
    expect(litecoin).toMatchObject({ holdings: '0.25', liabilities: '1.5', difference: '-1.25', complete: true, shortfall: true });
    expect(sample(await metrics(), 'reserves_shortfall', { token: 'litecoin' })).toBe(1.25);
    expect(await alerts('reserves.shortfall', 'litecoin')).toBe(1);
    expect(await mails(subject)).toBe(1);
    // Later checks, still short: no new alert.
    await reserves.check();
    await reserves.check();
    expect(await alerts('reserves.shortfall', 'litecoin')).toBe(1);
    expect(await mails(subject)).toBe(1);
    expect(logLines.filter((line) => line.includes('ALERT reserves: litecoin holdings 0.25 below liabilities 1.5'))).toHaveLength(1);
    const [audit] = (
      (await db.execute(
        sql`select actor_role as "actorRole", after from audit_log where action = 'reserves.shortfall' and target_id = 'litecoin'`,
      )) as unknown as {
        rows: Array<{ actorRole: string; after: { holdings: string; liabilities: string; shortfall: string } }>;
      }
    ).rows;
    expect(audit).toMatchObject({ actorRole: 'system', after: { holdings: '0.25', liabilities: '1.5', shortfall: '1.25' } });

    // Topped up: the episode closes once; short again later, a new episode alerts again.
    await ltc.send(hotLtcAddress, '3');
    await ltc.mine(1);
    await reserves.check();
    await reserves.check();
    expect(row(await screen(), 'litecoin')).toMatchObject({
      shortfall: false,
      difference: plain(
        toMoney(coins(await hot.call<number>('getbalance')))
          .add('0.25')
          .sub('1.5'),
      ),
    });
    expect(sample(await metrics(), 'reserves_shortfall', { token: 'litecoin' })).toBe(0);
    expect(await alerts('reserves.recovered', 'litecoin')).toBe(1);
    expect(await mails('Resolved: LTC reserves cover customer liabilities')).toBe(1);
    await hot.call('sendtoaddress', [await ltc.newAddress(), coins(await hot.call<number>('getbalance')), '', '', true]);
    await ltc.mine(1);
    await reserves.check();
    expect(await alerts('reserves.shortfall', 'litecoin')).toBe(2);
    expect(await mails(subject)).toBe(2);
    // Ethereum and the token never were short.
    expect(await alerts('reserves.shortfall', 'ethereum')).toBe(0);
    expect(await alerts('reserves.shortfall', 'tether')).toBe(0);
  });

  it('a node that does not answer: its holdings unreachable, liabilities still shown, no alert', async () => {
    await anvil.close();
    await reserves.check();
    const ethereum = row(await screen(), 'ethereum');
    expect(ethereum.networks).toEqual([
      expect.objectContaining({ network: 'ethereum', state: 'unreachable', total: null, note: expect.stringContaining('did not answer') }),
    ]);
    expect(ethereum).toMatchObject({ holdings: null, liabilities: '1.5', difference: null, complete: false, shortfall: false });
    expect(await alerts('reserves.shortfall', 'ethereum')).toBe(0);
    // The other network is still read.
    expect(row(await screen(), 'litecoin').networks[0].state).toBe('read');
  });
});

describe('CHAIN_<NETWORK>_COLD_ADDRESSES at boot', () => {
  it('refuses to start with a cold address that is not an address of the network on its chain', async () => {
    await expect(
      startTestApp('pglite', {
        CHAIN_LITECOIN_RPC_URL: 'http://127.0.0.1:9',
        CHAIN_LITECOIN_XPUB: TPUB,
        CHAIN_LITECOIN_CHAIN: 'regtest',
        // A mainnet address on a regtest node.
        CHAIN_LITECOIN_COLD_ADDRESSES: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh',
      }),
    ).rejects.toThrow('CHAIN_LITECOIN_COLD_ADDRESSES: ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh: This is not a valid regtest Litecoin address.');
  });
});
