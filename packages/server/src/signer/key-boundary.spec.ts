import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WATCHER_RPC_METHODS } from '../chain-core/node-rpc-methods';
import { SIGNER_RPC_METHODS } from './signer-rpc-methods';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.spec\.ts$/.test(name) ? [path] : [];
  });
}

/** Code, not comments: a comment may name what the signer does. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/**
 * The signer boundary (docs/operate/signer.md), checked on the source: outside src/signer/ no module reads a key file,
 * calls a signing method of the node wallet, or signs with a key. The API only ever asks the signer process.
 */
describe('no module outside src/signer/ holds or uses a key', () => {
  const outside = sources(SRC).filter((file) => !relative(SRC, file).startsWith('signer/'));
  const signer = sources(join(SRC, 'signer'));

  it('finds the sources (the check looks at something)', () => {
    expect(outside.length).toBeGreaterThan(100);
    expect(signer.map((file) => relative(SRC, file))).toEqual(
      expect.arrayContaining(['signer/main.ts', 'signer/evm-key-signer.ts', 'signer/node-wallet-signer.ts']),
    );
  });

  it('reads no KEY_FILE, calls no walletprocesspsbt / signrawtransactionwithwallet / psbtbumpfee / bumpfee / dumpprivkey, no signTransaction', () => {
    const found: string[] = [];
    for (const file of outside) {
      const text = code(readFileSync(file, 'utf8'));
      const name = relative(SRC, file);
      if (
        /\b(walletprocesspsbt|signrawtransactionwithwallet|signrawtransactionwithkey|psbtbumpfee|bumpfee|dumpprivkey|dumpwallet|walletpassphrase)\b/.test(text)
      ) {
        found.push(`${name}: a signing method of the node wallet`);
      }
      if (
        /\.signTransaction\s*\(|\bsignMessage\s*\(|\bprivateKeyToAccount\b|\bmnemonicToAccount\b|\bprivateExtendedKey\b|\bderiveChild\([^)]*\)\.privateKey\b/.test(
          text,
        )
      ) {
        found.push(`${name}: signs with a key`);
      }
      // Reading the key file: any mention of KEY_FILE next to a file read in the same module.
      if (/KEY_FILE/.test(text) && /\b(readFileSync|readFile|createReadStream|openSync)\b/.test(text)) found.push(`${name}: reads a KEY_FILE`);
      if (/\bparseEvmKeyFile\b|\bkeyFile\b/.test(text)) found.push(`${name}: handles a key file`);
    }
    expect(found).toEqual([]);
  });

  it('the signer itself does (so the patterns above would catch the code if it moved back)', () => {
    const all = signer.map((file) => code(readFileSync(file, 'utf8'))).join('\n');
    expect(all).toMatch(/'walletprocesspsbt'/);
    expect(all).toMatch(/\.signTransaction\(/);
    expect(all).toMatch(/KEY_FILE/);
    expect(all).toMatch(/readFileSync/);
  });
});

/**
 * The Bitcoin Core RPC methods a file calls: `.call('name', …)` / `.call<T>('name', …)` and `{ method: 'name' }` of a
 * batch. Bitcoin Core's names are lower case without `_` (the EVM's are `eth_…`).
 */
function methodsIn(files: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\.call(?:<[^()]*?>)?\(\s*'([a-z]+)'|\bmethod: '([a-z]+)'/g)) {
      const method = match[1] ?? match[2];
      found.set(method, [...(found.get(method) ?? []), relative(SRC, file)]);
    }
  }
  return found;
}

describe('the RPC methods each process calls are the ones its node user is allowed', () => {
  const all = sources(SRC);
  const signer = all.filter((file) => relative(SRC, file).startsWith('signer/'));
  const api = all.filter((file) => !relative(SRC, file).startsWith('signer/'));

  it('the API calls only WATCHER_RPC_METHODS (gettxout included: the cold discard checks its inputs with it)', () => {
    const called = methodsIn(api);
    expect(called.get('gettxout')).toBeDefined();
    expect(called.get('getblock')).toBeDefined();
    const missing = [...called].filter(([method]) => !(WATCHER_RPC_METHODS as readonly string[]).includes(method));
    expect(missing).toEqual([]);
  });

  it('the signer calls only SIGNER_RPC_METHODS, and no method that sends or reads beyond its wallet', () => {
    const called = methodsIn(signer);
    expect(called.get('walletprocesspsbt')).toBeDefined();
    const missing = [...called].filter(([method]) => !(SIGNER_RPC_METHODS as readonly string[]).includes(method));
    expect(missing).toEqual([]);
    expect(SIGNER_RPC_METHODS).not.toContain('sendrawtransaction');
    // No signing method in the API's list (the key boundary, said for the node as well).
    expect(
      WATCHER_RPC_METHODS.filter((method) => /walletprocesspsbt|signrawtransaction|psbtbumpfee|bumpfee|dumpprivkey|walletpassphrase/.test(method)),
    ).toEqual([]);
  });
});
