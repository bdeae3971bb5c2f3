import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ChainDepositDto, ChainRoutes, ChainStatusDto } from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { ChainStatusService } from './chain-status.service';

@ApiTags('admin-chain')
@Controller()
export class ChainController {
  constructor(private readonly status: ChainStatusService) {}

  @Get(ChainRoutes.status)
  @AdminAccess('read')
  @ApiOperation({ summary: 'Chain status: each node-connected network and its watcher' })
  @ApiOkResponse({
    type: [ChainStatusDto],
    description: 'Per connected network: node reachable, chain, node height, our height, lag in blocks and seconds, deposits confirming, last error.',
  })
  getChainStatus(): Promise<ChainStatusDto[]> {
    return this.status.status();
  }

  @Get(ChainRoutes.deposits)
  @AdminAccess('read')
  @ApiOperation({ summary: 'Deposits seen on chain' })
  @ApiQuery({ name: 'network', required: false, example: 'litecoin' })
  @ApiOkResponse({ type: [ChainDepositDto], description: 'Deposits seen on chain, newest first (at most 200).' })
  getChainDeposits(@Query('network') network?: string): Promise<ChainDepositDto[]> {
    return this.status.list(typeof network === 'string' && network ? network : undefined);
  }
}
