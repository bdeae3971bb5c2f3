import { Global, Module } from '@nestjs/common';
import { SendFeeCheck } from '../wallet/send-fee-check';
import { Erc20Payouts } from './erc20-payouts';
import { ColdPayoutsController } from './cold-payouts.controller';
import { ColdPayoutsRepository } from './cold-payouts.repository';
import { ColdPayoutsService } from './cold-payouts.service';
import { PayoutsController } from './payouts.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { ReservesAlertService } from '../reserves/reserves-alert.service';
import { ReservesController } from '../reserves/reserves.controller';
import { ReservesRepository } from '../reserves/reserves.repository';
import { ReservesService } from '../reserves/reserves.service';
import { SweepsRepository } from '../sweeps/sweeps.repository';
import { SweepsService } from '../sweeps/sweeps.service';
import { NetworkFeeService } from './network-fee.service';
import { PayoutBumps } from './payout-bumps';
import { PayoutCompletion } from './payout-completion';
import { PayoutFailures } from './payout-failures';
import { PayoutVersionsRepository } from './payout-versions.repository';
import { RemoteSigners } from '../signer-client/signer-clients';

/**
 * Withdrawals to the chain: approved withdrawals signed by the network's signer, broadcast and confirmed; the
 * cold-signature path; EVM sweeps; the reserves. Global for the wallet's SendFeeCheck (a send refused when the network
 * fee takes its whole amount), which the wallet module cannot import without a circle.
 */
@Global()
@Module({
  controllers: [PayoutsController, ReservesController, ColdPayoutsController],
  providers: [
    PayoutsRepository,
    PayoutsService,
    Erc20Payouts,
    ColdPayoutsRepository,
    ColdPayoutsService,
    SweepsRepository,
    SweepsService,
    ReservesRepository,
    ReservesAlertService,
    ReservesService,
    NetworkFeeService,
    PayoutBumps,
    PayoutCompletion,
    PayoutFailures,
    PayoutVersionsRepository,
    { provide: SendFeeCheck, useExisting: NetworkFeeService },
    RemoteSigners,
  ],
  exports: [PayoutsService, PayoutsRepository, SweepsService, SendFeeCheck],
})
export class PayoutsModule {}
