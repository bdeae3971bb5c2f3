import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { sql } from 'drizzle-orm';
import { HealthDto, HealthRoutes } from '@coinpurse/contract';
import { PublicAccess } from '../../common/access.decorator';
import { ServiceUnavailableError } from '../../common/errors';
import type { DatabaseHandle } from '../../db/database';
import { DATABASE_HANDLE } from '../../db/database.module';

@ApiTags('health')
@Controller(HealthRoutes.prefix)
export class HealthController {
  constructor(@Inject(DATABASE_HANDLE) private readonly database: DatabaseHandle) {}

  @Get()
  @PublicAccess()
  @ApiOkResponse({ type: HealthDto, description: '503 when the database does not answer.' })
  async health(): Promise<HealthDto> {
    try {
      await this.database.db.execute(sql`select 1`);
    } catch {
      throw new ServiceUnavailableError('The database is not reachable.');
    }
    return { status: 'ok', database: this.database.driver, time: new Date().toISOString() };
  }
}
