import { Global, Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { FeeScheduleChanges } from '../approvals/fee-schedule-changes';
import { HouseExposureAlerts } from '../wallet/house-exposure-alerts';
import { WalletModule } from '../wallet/wallet.module';
import { FeeScheduleService } from './fee-schedule.service';
import { FeesController } from './fees.controller';
import { FeesRepository } from './fees.repository';
import { HouseExposureService } from './house-exposure.service';
import { RevenueRepository } from './revenue.repository';
import { RevenueService } from './revenue.service';

/**
 * The operator's business (issue 34): the fee schedule (Fees screen), revenue (Revenue screen, CSV, metric) and the
 * house exposure alert. The rules themselves are the money functions' (drizzle/0050_fees.sql). Global for the wallet's
 * HouseExposureAlerts and the approvals' FeeScheduleChanges, which their modules cannot import without a circle.
 */
@Global()
@Module({
  imports: [WalletModule, ApprovalsModule],
  controllers: [FeesController],
  providers: [
    FeesRepository,
    FeeScheduleService,
    HouseExposureService,
    RevenueRepository,
    RevenueService,
    { provide: HouseExposureAlerts, useExisting: HouseExposureService },
    { provide: FeeScheduleChanges, useExisting: FeeScheduleService },
  ],
  exports: [HouseExposureAlerts, FeeScheduleChanges],
})
export class FeesModule {}
