import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReservesDto, ReservesRoutes } from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { ReservesService } from './reserves.service';

@ApiTags('admin-reserves')
@Controller()
export class ReservesController {
  constructor(private readonly reserves: ReservesService) {}

  @Get(ReservesRoutes.reserves)
  @AdminAccess('read')
  @ApiOperation({ summary: 'Reserves: coins held on chain per token and network next to customer liabilities' })
  @ApiOkResponse({
    type: ReservesDto,
    description:
      'Per token: per network the hot wallet, deposit addresses and cold addresses read from its node (or why not), the holdings, the customer balances and pending withdrawals, and the difference. Figures at most a minute old.',
  })
  getReserves(): Promise<ReservesDto> {
    return this.reserves.reserves();
  }
}
