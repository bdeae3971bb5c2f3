import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
  TransactionChangeDto,
  TransactionDto,
  UpdateBalanceDto,
  UpdateBalanceResponseDto,
  UsersQueryDto,
  WalletRoutes,
} from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';
import { AdminAccess } from '../../common/access.decorator';
import { nextCursorHeader, setCursor } from '../../common/next-cursor';
import { type Actor, CurrentActor } from '../../common/principal';
import { type IdempotencyContext, IdempotencyCtx, Idempotent } from '../ledger/idempotency';
import { LedgerService } from '../ledger/ledger.service';
import { WalletService } from '../wallet/wallet.service';
import { WithdrawalQueues } from '../payouts/withdrawal-queues';
import { AdminLedgerViewsService } from './admin-ledger-views.service';
import { AdminDepositsService } from './admin-deposits.service';
import { BalanceAdjustmentsService } from './balance-adjustments.service';
import { answer } from '../approvals/approval-gate.service';
import { TransactionStatusService } from './transaction-status.service';
import { TransactionVoidsService } from './transaction-voids.service';

const sentForApproval = ApiAcceptedResponse({
  type: PendingApprovalDto,
  description:
    'Four-eyes: nothing is applied yet and a second admin must approve it, when the movement crosses what is owed to customers ' +
    '(a credit, a debit, settling a withdrawal or refunding a settled one; not a pending withdrawal given back) and either its USD value at ' +
    'current prices is at or above APPROVAL_THRESHOLD_USD, or it would take a rolling sum to the threshold: the direct (not approved) money ' +
    'actions of this admin, or of any admin on this customer, over the last APPROVAL_WINDOW_HOURS (default 24). The approval applies exactly ' +
    'the ledger lines bound to the request, from the balance or status it was decided from, or answers 409 and moves nothing.',
});

@ApiTags('admin-transactions')
@Controller()
export class AdminTransactionsController {
  constructor(
    private readonly deposits: AdminDepositsService,
    private readonly statuses: TransactionStatusService,
    private readonly voids: TransactionVoidsService,
    private readonly adjustments: BalanceAdjustmentsService,
    private readonly views: AdminLedgerViewsService,
    private readonly wallet: WalletService,
    private readonly ledger: LedgerService,
    private readonly queues: WithdrawalQueues,
  ) {}

  @Post(WalletRoutes.deposit)
  @AdminAccess('operate')
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
    return answer(response, this.deposits.deposit(actor, userId, body, idem));
  }

  @Post(WalletRoutes.modifyTransaction)
  @HttpCode(200)
  @AdminAccess('operate')
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
    return answer(response, this.statuses.modify(actor, body));
  }

  @Delete(WalletRoutes.deleteTrx)
  @AdminAccess('operate')
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
    return answer(response, this.voids.void(actor, id));
  }

  @Post(WalletRoutes.updateBalance)
  @HttpCode(200)
  @AdminAccess('operate')
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
    return answer(response, this.adjustments.updateBalance(actor, userId, body, idem));
  }

  @Get(WalletRoutes.adminTransactions)
  @AdminAccess('read')
  @ApiOkResponse({
    type: [TransactionDto],
    description: 'All customers, newest first; voided ones hidden.',
    headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader },
  })
  async getAdminTransactions(@Query() query: AdminTransactionQueryDto, @Res({ passthrough: true }) response: FastifyReply): Promise<TransactionDto[]> {
    const page = await this.wallet.history(undefined, query, query.waiting ? this.queues.condition(query.waiting) : undefined);
    setCursor(response, page.nextCursor);
    return page.items;
  }

  @Get(WalletRoutes.ledgerCheck)
  @AdminAccess('read')
  @ApiOkResponse({ type: LedgerCheckDto, description: 'Per token Σ journal lines = 0, every balance = Σ its lines, no negative customer balance.' })
  checkLedger(): Promise<LedgerCheckDto> {
    return this.ledger.check();
  }

  @Get(WalletRoutes.ledgerLiabilities)
  @AdminAccess('read')
  @ApiOkResponse({
    type: LiabilitiesDto,
    description: 'What the platform owes customers per token (balances + pending withdrawals), in USD at current prices.',
  })
  getLedgerLiabilities(): Promise<LiabilitiesDto> {
    return this.views.liabilities();
  }
}

@ApiTags('admin-users')
@Controller()
export class AdminUserBalancesController {
  constructor(private readonly views: AdminLedgerViewsService) {}

  @Get(WalletRoutes.getUsers)
  @AdminAccess('read')
  @ApiOkResponse({
    type: [AdminUserDto],
    description: 'Active customers (no admins, no deactivated accounts) by email, with balances in USD; `token` is the token name.',
    headers: { [NEXT_CURSOR_HEADER]: nextCursorHeader },
  })
  async getUsers(@Query() query: UsersQueryDto, @Res({ passthrough: true }) response: FastifyReply): Promise<AdminUserDto[]> {
    const page = await this.views.listUsers(query);
    setCursor(response, page.nextCursor);
    return page.items;
  }
}
