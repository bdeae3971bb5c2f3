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

  /** `verify` at sign-in, after the right password (a wrong code there alerts the owner; see TwoFactorService). */
  verifySignIn(principal: TwoFactorAccount, code: string | undefined): Promise<void> {
    return this.twoFactor.requireSignInCode(principal, code);
  }

  /**
   * `verify` for a money function: a code given is checked now (true); without one (false) the function itself refuses
   * when two-factor sign-in is on (`cp_require_second_factor`, mapped by `refusalOf`), which saves a read. A send by an
   * API key with the `withdraw` scope counts as checked: the key was created under step-up.
   */
  async verifyGiven(principal: TwoFactorAccount & { apiKey?: { scopes: readonly string[] } }, code: string | undefined): Promise<boolean> {
    // An API key with `withdraw` was created under this same step-up (api-keys.service.ts): its sends count as checked.
    if (principal.apiKey?.scopes.includes('withdraw')) return true;
    if (!code) return false;
    await this.twoFactor.requireCode(principal, code);
    return true;
  }

  /** The error of a money function's CPS01 refusal (undefined: another code). */
  refusalOf(code: string): Error | undefined {
    return this.twoFactor.refusalOf(code);
  }
}
