import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ColdPayoutDto, ColdPayoutRoutes, FailColdPayoutDto, SignedPayoutUploadDto, UnsignedPayoutDto } from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor } from '../../common/principal';
import { ColdPayoutsService } from './cold-payouts.service';

@ApiTags('admin-payouts')
@Controller()
export class ColdPayoutsController {
  constructor(private readonly cold: ColdPayoutsService) {}

  @Get(ColdPayoutRoutes.list)
  @AdminAccess('read')
  @ApiOperation({ summary: 'Payouts paid from the cold side: waiting for their offline signature, or signed and not completed yet' })
  @ApiOkResponse({ type: [ColdPayoutDto], description: 'Oldest first (at most 500).' })
  getColdPayouts(): Promise<ColdPayoutDto[]> {
    return this.cold.list();
  }

  @Post(ColdPayoutRoutes.unsigned)
  @HttpCode(200)
  @AdminAccess('operate')
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
  @AdminAccess('operate')
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

  @Post(ColdPayoutRoutes.discard)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOperation({
    summary: 'Discard the prepared unsigned transaction of a cold payout (before a signed one is uploaded)',
    description:
      'Its inputs (UTXO) or its nonce (EVM, when it is the last one reserved for the cold address) are given back once none of them is seen used on the chain; the payout waits for its cold signature again and the next download prepares a new transaction. Audited as chain.cold_payout_discarded. Do not sign or send the discarded file.',
  })
  @ApiOkResponse({ type: ColdPayoutDto })
  @ApiNotFoundResponse({ description: 'The withdrawal has no payment on the chain.' })
  @ApiConflictResponse({
    description:
      'Not waiting for a cold signature (a signed one was uploaded), nothing prepared, the prepared transaction may be on the chain already, or a later cold transaction holds the next nonce.',
  })
  discardUnsignedPayout(@CurrentActor() actor: Actor, @Param('transactionId') transactionId: string): Promise<ColdPayoutDto> {
    return this.cold.discardUnsigned(actor, transactionId);
  }

  @Post(ColdPayoutRoutes.fail)
  @HttpCode(200)
  @AdminAccess('operate')
  @ApiOperation({
    summary: 'Fail a cold payout instead of signing it: the held amount goes back to the customer',
    description:
      'Only while it waits for its cold signature (nothing signed uploaded). A prepared transaction is given back first, as by discard. The withdrawal is rejected and its amount returned by a reversal entry with the reason (cp_fail_payout); the customer gets a notification and a mail; audited as chain.cold_payout_failed.',
  })
  @ApiOkResponse({ type: ColdPayoutDto, description: 'The payout, failed.' })
  @ApiBadRequestResponse({ description: 'No reason given, or a reason too long.' })
  @ApiNotFoundResponse({ description: 'The withdrawal has no payment on the chain.' })
  @ApiConflictResponse({
    description: 'Not waiting for a cold signature (a signed one was uploaded), no longer approved, or the prepared transaction may be on the chain already.',
  })
  failColdPayout(@CurrentActor() actor: Actor, @Param('transactionId') transactionId: string, @Body() body: FailColdPayoutDto): Promise<ColdPayoutDto> {
    return this.cold.failCold(actor, transactionId, body.reason);
  }
}
