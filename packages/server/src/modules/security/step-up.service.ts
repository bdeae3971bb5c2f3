import { Injectable } from '@nestjs/common';
import { type TwoFactorAccount, TwoFactorService } from './two-factor.service';

/**
 * Step-up for dangerous actions: `await stepUp.verify(principal, body.code)` before changing anything. A no-op when
 * the account has no second factor; otherwise a missing, wrong or replayed code answers 401 `twoFactorRequired` and the
 * action does not run. Injectable anywhere (the module is global): withdrawals, password/email change, 2FA off,
 * address book changes.
 */
@Injectable()
export class StepUpService {
  constructor(private readonly twoFactor: TwoFactorService) {}

  verify(principal: TwoFactorAccount, code: string | undefined): Promise<void> {
    return this.twoFactor.requireCode(principal, code);
  }
}
