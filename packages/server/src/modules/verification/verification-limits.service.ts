import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { PendingApprovalDto, UpdateLevelLimitsDto, VerificationLimitsDto } from '@coinpurse/contract';
import { NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import type { LevelLimits } from '../../config/kyc-config';
import { DATABASE, type Database, type Executor, type Tx } from '../../db/database';
import { ApprovalGate } from '../approvals/approval-gate.service';
import { AuditService } from '../audit/audit.service';
import { usdWords } from './verification-texts';
import { VerificationRepository } from './verification.repository';
import { VerificationService } from './verification.service';

const LIMIT_FIELDS = ['depositDay', 'depositMonth', 'withdrawalDay', 'withdrawalMonth', 'withdrawalSingle', 'swapDay', 'swapMonth'] as const;

/**
 * Each level's limits: seeded from configuration at start (rows the back office changed are kept) with KYC_LIMITS, read
 * by the limit rule in SQL (cp_require_within_limits); changed by an admin, audited, through a second admin when
 * four-eyes is on.
 */
@Injectable()
export class VerificationLimitsService implements OnApplicationBootstrap {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: VerificationRepository,
    private readonly verification: VerificationService,
    private readonly gate: ApprovalGate,
    private readonly audit: AuditService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.repository.seed(this.config.kyc.defaults, this.config.kyc.limitsEnabled);
  }

  /** `executor`: inside a caller's transaction (a second admin's approval), read there (the outer handle would wait on it). */
  async get(executor?: Executor): Promise<VerificationLimitsDto> {
    return { limitsEnabled: this.config.kyc.limitsEnabled, levels: await this.verification.levels(executor) };
  }

  /** Four-eyes on: a request another admin approves (202 body); off: changed now. Audited either way. */
  async update(actor: Actor, levelText: string, input: UpdateLevelLimitsDto, applying?: { tx: Tx }): Promise<VerificationLimitsDto | PendingApprovalDto> {
    const level = Number(levelText);
    if (!/^[012]$/.test(levelText)) throw new NotFoundError('There is no such level: levels are 0, 1 and 2.');
    const limits = Object.fromEntries(
      LIMIT_FIELDS.map((field) => [field, input[field] === '' || input[field] == null ? null : input[field]]),
    ) as unknown as LevelLimits;
    const run = async (tx: Tx) => {
      const before = (await this.repository.limits(tx)).find((row) => row.level === level);
      if (!before) throw new NotFoundError('There is no such level.');
      if (!applying && this.gate.decides(actor)) {
        return this.gate.requestAdminChange(
          actor,
          {
            action: 'update-verification-limits',
            userId: null,
            transactionId: null,
            payload: { level: levelText, ...limits },
            effect: { level, ...limits },
            summary: `Set the level-${level} limits: ${describe(limits)}`,
          },
          tx,
        );
      }
      await this.repository.updateLimits(level, limits, actor.id, tx);
      const { level: _level, ...beforeLimits } = before;
      await this.audit.record(
        actor,
        { action: 'verification.limits', targetType: 'verification-level', targetId: String(level), before: beforeLimits, after: limits },
        tx,
      );
      return undefined;
    };
    const pending = applying ? await run(applying.tx) : await this.db.transaction(run);
    return pending ?? this.get(applying?.tx);
  }
}

function describe(limits: LevelLimits): string {
  const figure = (value: string | null) => (value === null ? 'no limit' : usdWords(value));
  return [
    `deposits ${figure(limits.depositDay)} a day, ${figure(limits.depositMonth)} per 30 days`,
    `withdrawals ${figure(limits.withdrawalDay)} a day, ${figure(limits.withdrawalMonth)} per 30 days, ${figure(limits.withdrawalSingle)} at once`,
    `swaps ${figure(limits.swapDay)} a day, ${figure(limits.swapMonth)} per 30 days`,
  ].join('; ');
}
