import { HDKey } from '@scure/bip32';

/** BIP32 versions of the standard extended private keys (their public counterparts: xpub, tpub). */
const PRIVATE_VERSIONS = {
  xprv: { private: 0x0488ade4, public: 0x0488b21e },
  tprv: { private: 0x04358394, public: 0x043587cf },
} as const;

/** What an EVM network's key file (`CHAIN_<NETWORK>_KEY_FILE`) holds: read by the signer only. */
export interface EvmKeyFile {
  /** The hot address's private key: pays approved withdrawals and the gas top-ups of sweeps. */
  hotKey: `0x${string}`;
  /**
   * The account-level extended private key (m/44'/60'/0'), the private counterpart of `CHAIN_<NETWORK>_XPUB`: the
   * deposit addresses' keys are derived from it to sweep them. Absent: no sweeps on the network.
   */
  depositKey?: HDKey;
}

export class EvmKeyFileError extends Error {}

/**
 * Reads a key file's text: one line with the hot key (64 hex digits, optionally 0x) and, for sweeps, one line with the
 * account's `xprv`/`tprv`; empty lines are ignored. Messages never repeat the content: it is private keys.
 */
export function parseEvmKeyFile(text: string): EvmKeyFile {
  let hotKey: `0x${string}` | undefined;
  let depositKey: HDKey | undefined;
  for (const line of text.split(/\r?\n/).map((l) => l.trim())) {
    if (!line) continue;
    if (/^(0x)?[0-9a-fA-F]{64}$/.test(line)) {
      if (hotKey) throw new EvmKeyFileError('holds two hot keys');
      hotKey = `0x${line.replace(/^0x/, '').toLowerCase()}`;
      continue;
    }
    const versions = line.startsWith('tprv') ? PRIVATE_VERSIONS.tprv : line.startsWith('xprv') ? PRIVATE_VERSIONS.xprv : undefined;
    if (!versions) throw new EvmKeyFileError('has a line that is neither a hot key (64 hex digits) nor an extended private key (xprv/tprv)');
    if (depositKey) throw new EvmKeyFileError('holds two extended private keys');
    try {
      depositKey = HDKey.fromExtendedKey(line, versions);
    } catch {
      throw new EvmKeyFileError('has an extended private key that cannot be read');
    }
    if (!depositKey.privateKey || depositKey.depth !== 3) {
      throw new EvmKeyFileError("has an extended private key that is not account-level (depth 3, m/44'/60'/0')");
    }
  }
  if (!hotKey) throw new EvmKeyFileError('holds no hot key');
  return { hotKey, ...(depositKey ? { depositKey } : {}) };
}

/** Whether an extended private key is the private counterpart of an account's public key (same point and chain code). */
export function isCounterpartOf(depositKey: HDKey, publicKey: HDKey): boolean {
  const same = (a: Uint8Array | null, b: Uint8Array | null) => !!a && !!b && a.length === b.length && a.every((byte, i) => byte === b[i]);
  return same(depositKey.publicKey, publicKey.publicKey) && same(depositKey.chainCode, publicKey.chainCode);
}
