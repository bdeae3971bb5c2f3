import { Global, Module } from '@nestjs/common';
import { SignerClientModule } from '../signer-client/signer-client.module';
import { SendFeeCheck } from '../wallet/send-fee-check';
import { ColdPayoutsController } from './cold-payouts.controller';
import { ColdPayoutsRepository } from './cold-payouts.repository';
import { ColdPayoutsService } from './cold-payouts.service';
import { Erc20Payouts } from './erc20-payouts';
import { NetworkFeeService } from './network-fee.service';
import { PayoutBumps } from './payout-bumps';
import { PayoutCompletion } from './payout-completion';
import { PayoutFailures } from './payout-failures';
import { HotWalletLocks } from './hot-wallet-locks';
import { PayoutVersionsRepository } from './payout-versions.repository';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { WithdrawalQueues } from './withdrawal-queues';

/**
 * Withdrawals to the chain: approved withdrawals signed by the network's signer process (through SignerClientModule),
 * broadcast, bumped when stuck and confirmed; above the hot limits, the cold payouts an admin signs offline. Global for
 * the wallet's SendFeeCheck (a send refused when the network fee takes its whole amount), which the wallet module cannot
 * import without a circle.
 */
@Global()
@Module({
  imports: [SignerClientModule],
  controllers: [PayoutsController, ColdPayoutsController],
  providers: [
    PayoutsRepository,
    PayoutsService,
    Erc20Payouts,
    ColdPayoutsRepository,
    ColdPayoutsService,
    NetworkFeeService,
    PayoutBumps,
    PayoutCompletion,
    PayoutFailures,
    HotWalletLocks,
    PayoutVersionsRepository,
    WithdrawalQueues,
    { provide: SendFeeCheck, useExisting: NetworkFeeService },
  ],
  exports: [PayoutsService, PayoutsRepository, SendFeeCheck, WithdrawalQueues],
})
export class PayoutsModule {}
