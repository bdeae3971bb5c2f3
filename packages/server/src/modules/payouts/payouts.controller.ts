import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { NetworkFeeDto, PayoutRoutes } from '@coinpurse/contract';
import { UserAccess } from '../../common/access.decorator';
import { NetworkFeeService } from './network-fee.service';

@ApiTags('wallet')
@Controller()
export class PayoutsController {
  constructor(private readonly fees: NetworkFeeService) {}

  @Get(PayoutRoutes.networkFee)
  @UserAccess('read')
  @ApiOperation({ summary: 'Network fee of a send and what the recipient gets, shown before the customer confirms (networks paid out by the platform)' })
  @ApiQuery({ name: 'coinAmount', required: true, example: '0.125' })
  @ApiOkResponse({ type: NetworkFeeDto })
  @ApiBadRequestResponse({ description: 'The token is not paid out on the chain by the platform, or the amount is not valid.' })
  getNetworkFee(@Param('tokenId') tokenId: string, @Query('coinAmount') coinAmount?: string): Promise<NetworkFeeDto> {
    return this.fees.networkFee(tokenId, coinAmount);
  }
}
