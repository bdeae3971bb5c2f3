import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/settings';
import { loadSignerEnvFile } from './signer-env-file';

const NAMES = ['SIGNER_ENV_FILE', 'COINPURSE_FROM_SIGNER_ENV', 'COINPURSE_FROM_DOTENV', 'COINPURSE_FROM_NAMED', 'SIGNER_PORT'];

/** The signer reads its own env file (signer.env or SIGNER_ENV_FILE), never the API's .env beside it. */
describe('the signer env file', () => {
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const dirs: string[] = [];
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A working directory holding the API's .env and, when given, the signer's files. */
  const workingDir = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'coinpurse-signer-env-'));
    dirs.push(dir);
    writeFileSync(join(dir, '.env'), 'COINPURSE_FROM_DOTENV=api\nSIGNER_PORT=1111\n');
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return dir;
  };
  const clear = () => {
    for (const name of NAMES) delete process.env[name];
  };

  it('reads signer.env from the working directory and ignores the .env beside it', () => {
    clear();
    const dir = workingDir({ 'signer.env': 'COINPURSE_FROM_SIGNER_ENV=signer\nSIGNER_PORT=3100\n' });
    expect(loadSignerEnvFile(dir)).toBe(join(dir, 'signer.env'));
    expect(process.env.COINPURSE_FROM_SIGNER_ENV).toBe('signer');
    expect(process.env.SIGNER_PORT).toBe('3100');
    expect(process.env.COINPURSE_FROM_DOTENV).toBeUndefined();
  });

  it('reads no file at all when there is no signer.env, not even the .env', () => {
    clear();
    const dir = workingDir({});
    expect(loadSignerEnvFile(dir)).toBeUndefined();
    expect(process.env.COINPURSE_FROM_DOTENV).toBeUndefined();
    expect(process.env.SIGNER_PORT).toBeUndefined();
  });

  it('SIGNER_ENV_FILE names another file (relative to the working directory); variables in the environment win', () => {
    clear();
    const dir = workingDir({ 'signer.env': 'COINPURSE_FROM_SIGNER_ENV=signer\n', 'keys.env': 'COINPURSE_FROM_NAMED=named\nSIGNER_PORT=3200\n' });
    process.env.SIGNER_ENV_FILE = 'keys.env';
    process.env.SIGNER_PORT = '4000';
    expect(loadSignerEnvFile(dir)).toBe(join(dir, 'keys.env'));
    expect(process.env.COINPURSE_FROM_NAMED).toBe('named');
    expect(process.env.SIGNER_PORT).toBe('4000');
    expect(process.env.COINPURSE_FROM_SIGNER_ENV).toBeUndefined();
    expect(process.env.COINPURSE_FROM_DOTENV).toBeUndefined();
  });

  it('stops with a configuration error when SIGNER_ENV_FILE names a file that does not exist', () => {
    clear();
    const dir = workingDir({ 'signer.env': 'COINPURSE_FROM_SIGNER_ENV=signer\n' });
    process.env.SIGNER_ENV_FILE = 'missing.env';
    expect(() => loadSignerEnvFile(dir)).toThrow(ConfigError);
    expect(() => loadSignerEnvFile(dir)).toThrow(/SIGNER_ENV_FILE names .*missing\.env, which does not exist/);
    expect(process.env.COINPURSE_FROM_SIGNER_ENV).toBeUndefined();
  });
});
