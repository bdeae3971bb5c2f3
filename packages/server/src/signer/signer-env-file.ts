import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config/settings';

/** The signer's own env file in its working directory; never the API's `.env` (whose keys the signer must not see, nor it the signer's). */
export const SIGNER_ENV_FILE = 'signer.env';

/**
 * The env file the signer reads: `SIGNER_ENV_FILE` from the environment (relative to `cwd`), else `signer.env` in `cwd`.
 * `required`: the operator named the file, so its absence is an error rather than "no file".
 */
export function signerEnvFile(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): { path: string; required: boolean } {
  const named = env.SIGNER_ENV_FILE?.trim();
  return { path: resolve(cwd, named || SIGNER_ENV_FILE), required: Boolean(named) };
}

/**
 * Loads the signer's env file into `process.env` when it exists (Node's own parser; variables already in the
 * environment win, as for the API's `.env`). Returns the file it read. A `SIGNER_ENV_FILE` that does not exist stops
 * the signer (ConfigError, exit 78) rather than starting it without its keys.
 */
export function loadSignerEnvFile(cwd: string = process.cwd()): string | undefined {
  const { path, required } = signerEnvFile(process.env, cwd);
  if (!existsSync(path)) {
    if (required) throw new ConfigError([`SIGNER_ENV_FILE names ${path}, which does not exist`]);
    return undefined;
  }
  process.loadEnvFile(path);
  return path;
}
