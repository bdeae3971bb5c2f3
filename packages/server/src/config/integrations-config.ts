import { parseDuration } from './duration';

/** API keys and webhooks (issue 33; see `.env.example`). */
export interface IntegrationSettings {
  /** Requests one API key may make per minute, counted on every instance together (`API_KEY_RATE_LIMIT_PER_MINUTE`). */
  apiKeyRateLimitPerMinute: number;
  webhooks: {
    /** Allow http and private, loopback and link-local receivers (`WEBHOOK_ALLOW_PRIVATE_NETWORKS`; tests, internal receivers). */
    allowPrivateNetworks: boolean;
    /** Waits before each retry, in milliseconds; after the last one fails the endpoint is disabled (`WEBHOOK_RETRY_SCHEDULE`). */
    retryScheduleMs: number[];
    /** How long one try may take before it counts as failed (`WEBHOOK_TIMEOUT_SECONDS`). */
    timeoutMs: number;
  };
}

/** Stripe's and Svix's shape: quick retries first, then hours, then daily for three days. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,30s,2m,10m,1h,6h,1d,1d,1d';
const MAX_RETRIES = 30;

export function parseIntegrationSettings(
  env: NodeJS.ProcessEnv,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
): IntegrationSettings {
  const allowRaw = env.WEBHOOK_ALLOW_PRIVATE_NETWORKS?.trim().toLowerCase() ?? '';
  let allowPrivateNetworks = false;
  if (['true', '1', 'yes'].includes(allowRaw)) allowPrivateNetworks = true;
  else if (!['', 'false', '0', 'no'].includes(allowRaw))
    problems.push(`WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false (got "${env.WEBHOOK_ALLOW_PRIVATE_NETWORKS}")`);

  const scheduleRaw = env.WEBHOOK_RETRY_SCHEDULE?.trim() || DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const waits = scheduleRaw.split(',').map((part) => parseDuration(part.trim()));
  let retryScheduleMs = DEFAULT_WEBHOOK_RETRY_SCHEDULE.split(',').map((part) => parseDuration(part)! * 1000);
  if (waits.some((wait) => wait === undefined) || waits.length > MAX_RETRIES) {
    problems.push(
      `WEBHOOK_RETRY_SCHEDULE must be at most ${MAX_RETRIES} waits separated by commas, each like 5s, 2m, 1h or 1d (got "${env.WEBHOOK_RETRY_SCHEDULE}")`,
    );
  } else {
    retryScheduleMs = waits.map((wait) => wait! * 1000);
  }

  return {
    apiKeyRateLimitPerMinute: int('API_KEY_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    webhooks: { allowPrivateNetworks, retryScheduleMs, timeoutMs: int('WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60) * 1000 },
  };
}
