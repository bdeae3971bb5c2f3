import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { ErasureService } from './erasure.service';
import { VerificationAdminController } from './verification-admin.controller';
import { VerificationLimitsService } from './verification-limits.service';
import { VerificationReviewService } from './verification-review.service';
import { VerificationController } from './verification.controller';
import { VerificationRepository } from './verification.repository';
import { VerificationService } from './verification.service';

/** Verification levels (issue 35): the customer's submissions, the review queue, each level's limits. */
@Module({
  imports: [ApprovalsModule],
  controllers: [VerificationController, VerificationAdminController],
  providers: [ErasureService, VerificationRepository, VerificationService, VerificationReviewService, VerificationLimitsService],
  exports: [VerificationService, VerificationReviewService, VerificationLimitsService, VerificationRepository],
})
export class VerificationModule {}
