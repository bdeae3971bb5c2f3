import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { ConfigError } from './settings';

const base = { NODE_ENV: 'test', DATA_DIR: ':memory:' };

describe('API key and webhook settings', () => {
  it('default to 600 key requests a minute, public https receivers, ten tries over about four days, 10 s a try', () => {
    expect(loadConfig(base).integrations).toEqual({
      apiKeyRateLimitPerMinute: 600,
      webhooks: {
        allowPrivateNetworks: false,
        retryScheduleMs: [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000, 86_400_000, 86_400_000],
        timeoutMs: 10_000,
      },
    });
  });

  it('read the variables, and refuse bad values with every problem named', () => {
    const config = loadConfig({
      ...base,
      API_KEY_RATE_LIMIT_PER_MINUTE: '50',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s, 2m',
      WEBHOOK_TIMEOUT_SECONDS: '3',
    });
    expect(config.integrations).toEqual({
      apiKeyRateLimitPerMinute: 50,
      webhooks: { allowPrivateNetworks: true, retryScheduleMs: [1_000, 120_000], timeoutMs: 3_000 },
    });
    let error: unknown;
    try {
      loadConfig({
        ...base,
        API_KEY_RATE_LIMIT_PER_MINUTE: '0',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe',
        WEBHOOK_RETRY_SCHEDULE: '5s,soon',
        WEBHOOK_TIMEOUT_SECONDS: '90',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false (got "maybe")',
      'WEBHOOK_RETRY_SCHEDULE must be at most 30 waits separated by commas, each like 5s, 2m, 1h or 1d (got "5s,soon")',
      'API_KEY_RATE_LIMIT_PER_MINUTE must be a whole number from 1 to 1000000 (got "0")',
      'WEBHOOK_TIMEOUT_SECONDS must be a whole number from 1 to 60 (got "90")',
    ]);
  });
});
