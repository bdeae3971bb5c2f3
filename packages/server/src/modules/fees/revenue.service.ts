import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { RevenueDto, RevenueQueryDto } from '@coinpurse/contract';
import { Gauge } from 'prom-client';
import { csvLine } from '../../common/csv';
import { InvalidInputError } from '../../common/errors';
import { plain, toMoney } from '../ledger/money';
import { MetricsService } from '../observability/metrics.service';
import { REVENUE_ACCOUNTS, RevenueRepository } from './revenue.repository';

const DAY_MS = 86_400_000;
/** At most this many days in one answer. */
const MAX_DAYS = 366;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The Revenue screen, its CSV and its metric: what the house earned per day and token, from the ledger. */
@Injectable()
export class RevenueService implements OnModuleInit {
  constructor(
    private readonly repository: RevenueRepository,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const repository = this.repository;
    new Gauge({
      name: 'coinpurse_revenue_coins',
      help: 'The house revenue booked per token and kind (swap_spread, swap_fee, withdrawal_fee; network_fees: its gain or cost on network fees), in token units, from the ledger',
      labelNames: ['token', 'kind'] as const,
      registers: [this.metrics.registry],
      async collect() {
        this.reset();
        for (const row of await repository.totals()) this.set({ token: row.token, kind: REVENUE_ACCOUNTS[row.code] }, Number(row.balance));
      },
    });
  }

  async revenue(query: RevenueQueryDto): Promise<RevenueDto> {
    const to = query.to ?? day(new Date());
    const from = query.from ?? day(new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS));
    const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
    if (!Number.isFinite(span) || span < 0) throw new InvalidInputError('from must be a day on or before to.');
    if (span >= MAX_DAYS) throw new InvalidInputError(`Ask for at most ${MAX_DAYS} days at a time.`);
    const rows = (await this.repository.perDay(from, to)).map((row) => ({
      day: row.day,
      token: row.token,
      symbol: row.symbol,
      kind: REVENUE_ACCOUNTS[row.code],
      coinAmount: plain(row.coinAmount),
      usd: plain(row.usd),
      count: row.count,
    }));
    return { from, to, rows, totalUsd: plain(rows.reduce((sum, row) => sum.add(row.usd), toMoney(0))) };
  }

  async csv(query: RevenueQueryDto): Promise<string> {
    const { rows } = await this.revenue(query);
    return (
      csvLine(['day', 'token', 'symbol', 'kind', 'coinAmount', 'usd', 'count']) +
      rows.map((row) => csvLine([row.day, row.token, row.symbol.toUpperCase(), row.kind, row.coinAmount, row.usd, row.count])).join('')
    );
  }
}
