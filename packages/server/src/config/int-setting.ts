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
