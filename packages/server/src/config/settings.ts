import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What both processes read their settings with (the API's src/config/config.ts, the signer's src/signer/signer-config.ts):
 * the problems of a configuration reported together, the log levels, whole-number settings and the env file.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

/**
 * `LOG_FORMAT`: `json` lines or `pretty`; unset, pretty only when `pretty` is the default asked for (a person watching
 * a development terminal), else JSON. A bad value adds its problem and reads as JSON.
 */
export function parseLogFormat(raw: string | undefined, prettyByDefault: boolean, problems: string[]): LogFormat {
  const format = (raw || (prettyByDefault ? 'pretty' : 'json')).toLowerCase();
  if (format === 'json' || format === 'pretty') return format;
  problems.push(`LOG_FORMAT must be json or pretty (got "${raw}")`);
  return 'json';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * A reader of whole-number settings from `env`: the value within [min, max], or `fallback` when unset; a bad value
 * adds its problem to `problems` (reported together at boot) and reads as the fallback.
 */
export function intSetting(env: NodeJS.ProcessEnv, problems: string[]) {
  return (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
}

/**
 * Loads `.env` from the working directory into `process.env` when the file exists (Node's own parser). Variables
 * already in the environment win: `process.loadEnvFile` never overwrites them. Returns the file it read, if any.
 */
export function loadDotEnv(cwd: string = process.cwd()): string | undefined {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}
