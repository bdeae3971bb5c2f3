import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

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
