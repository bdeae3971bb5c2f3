import { Injectable } from '@nestjs/common';
import type { MoneyGuard } from '../ledger/ledger.repository';
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

  /** `verify` at sign-in, after the right password (a wrong code there alerts the owner; see TwoFactorService). */
  verifySignIn(principal: TwoFactorAccount, code: string | undefined): Promise<void> {
    return this.twoFactor.requireSignInCode(principal, code);
  }

  /** `verify` for a one-statement money operation: a code is checked now; without one, a guard (see TwoFactorService). */
  verifyOrGuard(principal: TwoFactorAccount, code: string | undefined): Promise<MoneyGuard | undefined> {
    return this.twoFactor.requireCodeOrGuard(principal, code);
  }

  /** The error of a failed `verifyOrGuard` guard (undefined: not its failure). */
  refusalOf(code: string): Error | undefined {
    return this.twoFactor.refusalOf(code);
  }
}
