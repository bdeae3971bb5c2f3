import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ColdPayoutDto, ColdPayoutRoutes, SignedPayoutUploadDto, UnsignedPayoutDto } from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { ColdPayoutsService } from './cold-payouts.service';

@ApiTags('admin-payouts')
@Controller()
export class ColdPayoutsController {
  constructor(private readonly cold: ColdPayoutsService) {}

  @Get(ColdPayoutRoutes.list)
  @AdminAccess()
  @ApiOperation({ summary: 'Payouts paid from the cold side: waiting for their offline signature, or signed and not completed yet' })
  @ApiOkResponse({ type: [ColdPayoutDto], description: 'Oldest first (at most 500).' })
  getColdPayouts(): Promise<ColdPayoutDto[]> {
    return this.cold.list();
  }

  @Post(ColdPayoutRoutes.unsigned)
  @HttpCode(200)
  @AdminAccess()
  @ApiOperation({
    summary: 'The unsigned transaction of a payout awaiting its cold signature (a PSBT, or an unsigned EIP-1559 transaction)',
    description:
      'Prepared on the first call (the cold wallet’s inputs, or the cold address’s nonce, reserved; audited as chain.cold_payout_prepared), the same bytes on every later call. From then on the withdrawal’s status can no longer change.',
  })
  @ApiOkResponse({ type: UnsignedPayoutDto })
  @ApiNotFoundResponse({ description: 'The withdrawal has no payment on the chain.' })
  @ApiConflictResponse({ description: 'Not waiting for a cold signature, no longer approved, or the cold side cannot pay it now.' })
  prepareUnsignedPayout(@CurrentActor() actor: Actor, @Param('transactionId') transactionId: string): Promise<UnsignedPayoutDto> {
    return this.cold.unsigned(actor, transactionId);
  }

  @Post(ColdPayoutRoutes.signed)
  @HttpCode(200)
  @AdminAccess()
  @ApiOperation({
    summary: 'Upload the offline-signed transaction of a cold payout',
    description:
      'Stored with its txid (payoutState signed; the payout job broadcasts it, then it confirms as any payout) only when it is the prepared transaction, fully signed, paying exactly the approved address the approved amount, with change only to our own wallets and no larger fee than prepared.',
  })
  @ApiOkResponse({ type: ColdPayoutDto })
  @ApiBadRequestResponse({
    description: 'The upload pays anything else, is not signed or cannot be read: refused with the reason and an audit row (chain.cold_payout_refused).',
  })
  @ApiNotFoundResponse({ description: 'The withdrawal has no payment on the chain.' })
  @ApiConflictResponse({ description: 'Not waiting for a cold signature (already signed, say), or its unsigned transaction was never downloaded.' })
  uploadSignedPayout(@CurrentActor() actor: Actor, @Param('transactionId') transactionId: string, @Body() body: SignedPayoutUploadDto): Promise<ColdPayoutDto> {
    return this.cold.uploadSigned(actor, transactionId, body.signedTx);
  }
}
