import { resolve } from 'node:path';

/** Sanctions screening and the travel rule (issue 35; see `.env.example`). */
export interface ComplianceSettings {
  /** `SANCTIONS_LIST_FILE`: one `network,address` a line, loaded into the database at start and whenever it changes. */
  sanctionsListFile: string | undefined;
  /** How often the file is looked at for a change (`SANCTIONS_LIST_CHECK_SECONDS`). */
  sanctionsListCheckMs: number;
  /** A send worth this many USD or more needs the beneficiary's details (`TRAVEL_RULE_THRESHOLD_USD`; 0: every send). */
  travelRuleThresholdUsd: string;
}

const USD = /^\d{1,15}(\.\d{1,8})?$/;

export function parseComplianceSettings(
  env: NodeJS.ProcessEnv,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
): ComplianceSettings {
  const thresholdRaw = env.TRAVEL_RULE_THRESHOLD_USD?.trim() || '1000';
  if (!USD.test(thresholdRaw)) problems.push(`TRAVEL_RULE_THRESHOLD_USD must be a USD amount such as 1000 (got "${env.TRAVEL_RULE_THRESHOLD_USD}")`);
  const file = env.SANCTIONS_LIST_FILE?.trim();
  return {
    sanctionsListFile: file ? resolve(file) : undefined,
    sanctionsListCheckMs: int('SANCTIONS_LIST_CHECK_SECONDS', 60, 1, 86_400) * 1000,
    travelRuleThresholdUsd: USD.test(thresholdRaw) ? thresholdRaw : '1000',
  };
}
