import { describe, expect, it } from 'vitest';
import { parseKycSettings } from './kyc-config';

describe('KYC settings', () => {
  it('are off by default, with the issue’s limits per level', () => {
    const problems: string[] = [];
    const settings = parseKycSettings({}, problems);
    expect(problems).toEqual([]);
    expect(settings.limitsEnabled).toBe(false);
    expect(settings.defaults[0]).toEqual({
      depositDay: '1000',
      depositMonth: null,
      withdrawalDay: '0',
      withdrawalMonth: '0',
      withdrawalSingle: '0',
      swapDay: '1000',
      swapMonth: null,
    });
    expect(settings.defaults[1]).toMatchObject({ depositDay: '10000', depositMonth: '50000', withdrawalSingle: '10000', swapMonth: '50000' });
    expect(settings.defaults[2]).toMatchObject({ withdrawalDay: '100000', withdrawalMonth: '500000' });
  });

  it('takes on/off and a level’s parts, keeping the defaults of the parts left out', () => {
    const problems: string[] = [];
    const settings = parseKycSettings({ KYC_LIMITS: 'on', KYC_LEVEL_1_LIMITS: 'withdrawal=500/2000.50,single=-' }, problems);
    expect(problems).toEqual([]);
    expect(settings.limitsEnabled).toBe(true);
    expect(settings.defaults[1]).toMatchObject({ withdrawalDay: '500', withdrawalMonth: '2000.50', withdrawalSingle: null, depositDay: '10000' });
  });

  it('reports each bad value', () => {
    const problems: string[] = [];
    parseKycSettings({ KYC_LIMITS: 'maybe', KYC_LEVEL_0_LIMITS: 'deposit=1,000/-', KYC_LEVEL_2_LIMITS: 'fees=1/2' }, problems);
    expect(problems).toEqual([
      'KYC_LIMITS must be on or off (got "maybe")',
      expect.stringMatching(/^KYC_LEVEL_0_LIMITS: /),
      'KYC_LEVEL_2_LIMITS: "fees" is not deposit, withdrawal, single or swap',
    ]);
  });
});
