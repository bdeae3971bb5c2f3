import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  NEXT_CURSOR_HEADER,
  SendCryptoDto,
  SendCryptoResponseDto,
  SwapDto,
  SwapQuoteDto,
  SwapQuoteRequestDto,
  SwapResponseDto,
  TransactionDto,
  TransactionQueryDto,
  UserBalanceDto,
  WalletRoutes,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { UserAccess } from '../../common/access.decorator';
import { nextCursorHeader, setCursor } from '../../common/next-cursor';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { type IdempotencyContext, IdempotencyCtx } from '../ledger/idempotency';
import { MoneyCall } from '../ledger/money-calls';
import { SendsService } from './sends.service';
import { SwapsService } from './swaps.service';
import { WalletService } from './wallet.service';

@ApiTags('wallet')
@Controller()
export class WalletController {
  constructor(
    private readonly wallet: WalletService,
    private readonly sends: SendsService,
    private readonly swaps: SwapsService,
  ) {}

  @Get(WalletRoutes.getUserBalance)
  @UserAccess('read')
  @ApiOkResponse({ type: UserBalanceDto, description: 'USD values at current prices; every supported token is listed, highest value first.' })
  getUserBalance(@CurrentActor() actor: Actor): Promise<UserBalanceDto> {
    return this.wallet.balance(actor.id);
  }

  @Get(WalletRoutes.getTransaction)
  @UserAccess('read')
  @ApiOkResponse({
    type: [TransactionDto],
    description: 'Own transactions, newest first; `amount` is the USD value at the time. Voided ones are hidden.',
    headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader },
  })
  @ApiBadRequestResponse({ description: 'Bad limit, cursor or filter.' })
  async getTransaction(
    @CurrentActor() actor: Actor,
    @Query() query: TransactionQueryDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<TransactionDto[]> {
    const page = await this.wallet.history(actor.id, query);
    setCursor(response, page.nextCursor);
    return page.items;
  }

  @Get(WalletRoutes.exportTransactions)
  @UserAccess('read')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'Own history as CSV (oldest first) with the USD amount and price at the time.', schema: { type: 'string' } })
  async exportTransactions(@CurrentActor() actor: Actor, @Res({ passthrough: true }) response: FastifyReply): Promise<string> {
    const csv = await this.wallet.exportCsv(actor.id);
    response.header('Content-Type', 'text/csv; charset=utf-8');
    response.header('Content-Disposition', 'attachment; filename="coinpurse-transactions.csv"');
    response.header('Cache-Control', 'no-store');
    return csv;
  }

  @Post(WalletRoutes.sendCrypto)
  @UserAccess('withdraw')
  @MoneyCall()
  @ApiCreatedResponse({
    type: SendCryptoResponseDto,
    description:
      "Holds the funds and records a pending withdrawal. The server converts `transferData.amount` (USD) at its own current price, rounded down to the token's decimals; the client's `coinAmount` is ignored. The address is validated for the token's network. 400 `Insufficient {SYMBOL} balance` when the balance is short.",
  })
  @ApiBadRequestResponse({ description: 'Bad amount or address, unsupported token, or insufficient balance.' })
  sendCrypto(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('tokenId') tokenId: string,
    @Body() body: SendCryptoDto,
    @IdempotencyCtx() idem?: IdempotencyContext,
  ): Promise<SendCryptoResponseDto> {
    return this.sends.send(principal, actor.requestId, tokenId, body, idem);
  }

  @Post(WalletRoutes.swap)
  @UserAccess('trade')
  @MoneyCall()
  @ApiCreatedResponse({
    type: SwapResponseDto,
    description:
      "Atomic swap at the server prices: `amount` USD of `from` (rounded down to its decimals) for the equivalent `to` quantity (rounded down), less the spread and swap fee of the fee schedule (both in `to`; none with a zero schedule). With `quoteId`: exactly that quote's numbers, once. The response gives the executed quantities, prices, rate and fee.",
  })
  @ApiBadRequestResponse({ description: 'Same token twice, unsupported token, bad amount, insufficient balance, or not the swap quoted.' })
  @ApiNotFoundResponse({ description: 'No such quote for this customer.' })
  @ApiConflictResponse({ description: '`quote expired`, the quote was already used, or the house cannot sell the `to` token now (a message for people).' })
  swapTokens(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: SwapDto,
    @IdempotencyCtx() idem?: IdempotencyContext,
  ): Promise<SwapResponseDto> {
    return this.swaps.swap(principal, actor.requestId, body, idem);
  }

  @Post(WalletRoutes.swapQuote)
  @UserAccess('trade')
  @ApiCreatedResponse({
    type: SwapQuoteDto,
    description:
      'A quote of the swap (`amount` USD of `from` for `to`) at the prices now, with the spread in `rate` and the `fee`: give its `quoteId` to `POST /api/crypto/swap` before `expiresAt` (SWAP_QUOTE_SECONDS) and exactly these numbers are executed, once, whatever the prices do meanwhile. Nothing moves until then.',
  })
  @ApiBadRequestResponse({ description: 'Same token twice, unsupported token, bad amount, or too small to cover the fee.' })
  @ApiConflictResponse({ description: 'The house cannot sell the `to` token now: "Swaps into Litecoin are paused: not enough Litecoin is available…".' })
  swapQuote(@CurrentPrincipal() principal: Principal, @Body() body: SwapQuoteRequestDto): Promise<SwapQuoteDto> {
    return this.swaps.quote(principal, body);
  }
}
