import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import {
  AdminTransactionQueryDto,
  AdminUserDto,
  DeleteTransactionResponseDto,
  DepositDto,
  LedgerCheckDto,
  LiabilitiesDto,
  ModifyTransactionDto,
  NEXT_CURSOR_HEADER,
  PendingApprovalDto,
  SendCryptoDto,
  SendCryptoResponseDto,
  SwapDto,
  SwapResponseDto,
  TransactionChangeDto,
  TransactionDto,
  TransactionQueryDto,
  UpdateBalanceDto,
  UpdateBalanceResponseDto,
  UserBalanceDto,
  UsersQueryDto,
  WalletRoutes,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess, UserAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { isPendingApproval } from '../admin/approval-gate.service';
import { type IdempotencyContext, IdempotencyCtx, Idempotent } from '../ledger/idempotency';
import { MoneyCall } from '../ledger/money-calls';
import { LedgerService } from '../ledger/ledger.service';
import { AdminTransactionsService } from './admin-transactions.service';
import { WalletService } from './wallet.service';

const nextCursorHeader = {
  name: NEXT_CURSOR_HEADER,
  description: 'Cursor of the next page (pass as `cursor`); absent on the last page',
  schema: { type: 'string' },
};

const sentForApproval = ApiAcceptedResponse({
  type: PendingApprovalDto,
  description: 'At or above APPROVAL_THRESHOLD_USD (USD value at current prices): nothing is applied yet; a second admin must approve it.',
});

/** A four-eyes hold answers 202 Accepted instead of the route's usual status. */
async function answer<T>(reply: FastifyReply, result: Promise<T>): Promise<T> {
  const body = await result;
  if (isPendingApproval(body)) reply.status(202);
  return body;
}

function setCursor(reply: FastifyReply, cursor: string | undefined): void {
  reply.header('Access-Control-Expose-Headers', NEXT_CURSOR_HEADER);
  if (cursor) reply.header(NEXT_CURSOR_HEADER, cursor);
}

@ApiTags('wallet')
@Controller()
export class WalletController {
  constructor(private readonly wallet: WalletService) {}

  @Get(WalletRoutes.getUserBalance)
  @UserAccess()
  @ApiOkResponse({ type: UserBalanceDto, description: 'USD values at current prices; every supported token is listed, highest value first.' })
  getUserBalance(@CurrentActor() actor: Actor): Promise<UserBalanceDto> {
    return this.wallet.balance(actor.id);
  }

  @Get(WalletRoutes.getTransaction)
  @UserAccess()
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
  @UserAccess()
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
  @UserAccess()
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
    return this.wallet.send(principal, actor.requestId, tokenId, body, idem);
  }

  @Post(WalletRoutes.swap)
  @UserAccess()
  @MoneyCall()
  @ApiCreatedResponse({
    type: SwapResponseDto,
    description:
      'Atomic swap at the server prices: `amount` USD of `from` (rounded down to its decimals) for the equivalent `to` quantity (rounded down). The response gives the executed quantities and prices.',
  })
  @ApiBadRequestResponse({ description: 'Same token twice, unsupported token, bad amount, or insufficient balance.' })
  swapTokens(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: SwapDto,
    @IdempotencyCtx() idem?: IdempotencyContext,
  ): Promise<SwapResponseDto> {
    return this.wallet.swap(principal, actor.requestId, body, idem);
  }
}

@ApiTags('admin-transactions')
@Controller()
export class AdminTransactionsController {
  constructor(
    private readonly admin: AdminTransactionsService,
    private readonly wallet: WalletService,
    private readonly ledger: LedgerService,
  ) {}

  @Post(WalletRoutes.deposit)
  @AdminAccess()
  @Idempotent()
  @ApiCreatedResponse({
    type: TransactionDto,
    description:
      "Records a deposit for the customer; `network` is the token. `amount` (USD) is converted at the server's price; the customer is credited only while the deposit is approved.",
  })
  @sentForApproval
  @ApiNotFoundResponse({ description: 'No such active customer.' })
  depositCrypto(
    @CurrentActor() actor: Actor,
    @Param('userId') userId: string,
    @Body() body: DepositDto,
    @Res({ passthrough: true }) response: FastifyReply,
    @IdempotencyCtx() idem?: IdempotencyContext,
  ): Promise<TransactionDto | PendingApprovalDto> {
    return answer(response, this.admin.deposit(actor, userId, body, idem));
  }

  @Post(WalletRoutes.modifyTransaction)
  @HttpCode(200)
  @AdminAccess()
  @ApiOkResponse({
    type: TransactionChangeDto,
    description:
      'Sets pending, approved or rejected on a deposit or withdrawal, posting the ledger effect (deposit approved credits, leaving approved reverses; withdrawal pending holds, rejected releases, approved settles). The customer is notified and an audit row written. Concurrent changes serialize: each applies to the state left by the previous one.',
  })
  @ApiConflictResponse({ description: 'The customer no longer holds the funds, the transaction is a swap/adjustment, or expectedStatus differs.' })
  @ApiNotFoundResponse({ description: 'No such transaction (or it was deleted).' })
  @sentForApproval
  modifyTransaction(
    @CurrentActor() actor: Actor,
    @Body() body: ModifyTransactionDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<TransactionChangeDto | PendingApprovalDto> {
    return answer(response, this.admin.modify(actor, body));
  }

  @Delete(WalletRoutes.deleteTrx)
  @AdminAccess()
  @ApiOkResponse({
    type: DeleteTransactionResponseDto,
    description: 'Voids: reverses the ledger effect, hides it from lists; it stays in the ledger and the audit log.',
  })
  @ApiConflictResponse({ description: 'The customer no longer holds what the reversal would take back.' })
  @ApiNotFoundResponse({ description: 'No such transaction (or already deleted).' })
  @sentForApproval
  deleteTrx(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<DeleteTransactionResponseDto | PendingApprovalDto> {
    return answer(response, this.admin.void(actor, id));
  }

  @Post(WalletRoutes.updateBalance)
  @HttpCode(200)
  @AdminAccess()
  @Idempotent()
  @ApiOkResponse({
    type: UpdateBalanceResponseDto,
    description:
      "type yes adds `amount` USD worth of the token; type no sets the balance to `amount` USD worth (converted at the server's price, rounded down). Posted as an adjustment with reason `msg`, shown to the customer as a transaction and a notification. `coinAmount` and `symbol` are ignored. Missing token, amount or type: 400 'All fields are required.'",
  })
  @sentForApproval
  @ApiNotFoundResponse({ description: 'No such active customer.' })
  updateBalance(
    @CurrentActor() actor: Actor,
    @Param('userId') userId: string,
    @Body() body: UpdateBalanceDto,
    @Res({ passthrough: true }) response: FastifyReply,
    @IdempotencyCtx() idem?: IdempotencyContext,
  ): Promise<UpdateBalanceResponseDto | PendingApprovalDto> {
    return answer(response, this.admin.updateBalance(actor, userId, body, idem));
  }

  @Get(WalletRoutes.adminTransactions)
  @AdminAccess()
  @ApiOkResponse({
    type: [TransactionDto],
    description: 'All customers, newest first; voided ones hidden.',
    headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader },
  })
  async getAdminTransactions(@Query() query: AdminTransactionQueryDto, @Res({ passthrough: true }) response: FastifyReply): Promise<TransactionDto[]> {
    const page = await this.wallet.history(undefined, query);
    setCursor(response, page.nextCursor);
    return page.items;
  }

  @Get(WalletRoutes.ledgerCheck)
  @AdminAccess()
  @ApiOkResponse({ type: LedgerCheckDto, description: 'Per token Σ journal lines = 0, every balance = Σ its lines, no negative customer balance.' })
  checkLedger(): Promise<LedgerCheckDto> {
    return this.ledger.check();
  }

  @Get(WalletRoutes.ledgerLiabilities)
  @AdminAccess()
  @ApiOkResponse({
    type: LiabilitiesDto,
    description: 'What the platform owes customers per token (balances + pending withdrawals), in USD at current prices.',
  })
  getLedgerLiabilities(): Promise<LiabilitiesDto> {
    return this.admin.liabilities();
  }
}

@ApiTags('admin-users')
@Controller()
export class AdminUserBalancesController {
  constructor(private readonly admin: AdminTransactionsService) {}

  @Get(WalletRoutes.getUsers)
  @AdminAccess()
  @ApiOkResponse({
    type: [AdminUserDto],
    description: 'Active customers (no admins, no deactivated accounts) by email, with balances in USD; `token` is the token name.',
    headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader },
  })
  async getUsers(@Query() query: UsersQueryDto, @Res({ passthrough: true }) response: FastifyReply): Promise<AdminUserDto[]> {
    const page = await this.admin.listUsers(query);
    setCursor(response, page.nextCursor);
    return page.items;
  }
}
