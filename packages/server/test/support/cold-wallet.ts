import { HDKey } from '@scure/bip32';
import { randomBytes } from 'node:crypto';
import { JsonRpcClient } from '../../src/chain-core/json-rpc';
import type { RegtestLitecoind } from './litecoind';

/** BIP32 versions of the test chains (tprv / tpub). */
const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };

/** A cold wallet on a regtest node: `cold` holds the keys (the offline signer), `watch` only their public side. */
export interface RegtestColdWallet {
  cold: JsonRpcClient;
  watch: JsonRpcClient;
  watchName: string;
}

/**
 * A cold wallet in a second wallet of the node ("cold", from a seed only the test holds) and its watch-only twin
 * (`watchName`, what CHAIN_<NETWORK>_COLD_WALLET names): the twin gets the public descriptors only (receive and change
 * branches, in its keypool), as an operator imports a hardware wallet's xpub. Litecoin Core 0.21 has no descriptor
 * wallets here (built without sqlite): both are legacy wallets filled with `importmulti`.
 */
export async function createColdWallet(ltc: RegtestLitecoind, watchName = 'cold-watch'): Promise<RegtestColdWallet> {
  const wallet = (name: string) => new JsonRpcClient({ rpcUrl: `${ltc.rpcUrl}/wallet/${name}`, rpcUrlForLogs: name, timeoutMs: 60_000 });
  const account = HDKey.fromMasterSeed(randomBytes(32), TEST_VERSIONS).derive("m/84'/1'/0'");
  await ltc.node.call('createwallet', ['cold', false, true]);
  await ltc.node.call('createwallet', [watchName, true, true]);
  const cold = wallet('cold');
  const watch = wallet(watchName);
  const imports = async (target: JsonRpcClient, key: string, watchOnly: boolean) => {
    const requests = [];
    for (const branch of [0, 1]) {
      const descriptor = `wpkh(${key}/${branch}/*)`;
      const { checksum } = await ltc.node.call<{ checksum: string }>('getdescriptorinfo', [descriptor]);
      requests.push({
        desc: `${descriptor}#${checksum}`,
        range: [0, 50],
        internal: branch === 1,
        timestamp: 'now',
        ...(watchOnly ? { watchonly: true, keypool: true } : {}),
      });
    }
    const results = await target.call<Array<{ success: boolean; error?: { message: string } }>>('importmulti', [requests]);
    const failed = results.find((r) => !r.success);
    if (failed) throw new Error(`importmulti failed: ${failed.error?.message ?? 'unknown'}`);
  };
  await imports(cold, account.privateExtendedKey, false);
  await imports(watch, account.publicExtendedKey, true);
  return { cold, watch, watchName };
}
