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
  @ApiOperation({ summary: 'Network fee and withdrawal fee of a send and what the recipient gets, shown before the customer confirms' })
  @ApiQuery({ name: 'coinAmount', required: true, example: '0.125' })
  @ApiQuery({
    name: 'network',
    required: false,
    example: 'litecoin',
    description: 'The network of the send (default: the one the platform pays out on, else the first)',
  })
  @ApiOkResponse({ type: NetworkFeeDto })
  @ApiBadRequestResponse({ description: 'The token is not supported, is not sent on that network, or the amount is not valid.' })
  getNetworkFee(@Param('tokenId') tokenId: string, @Query('coinAmount') coinAmount?: string, @Query('network') network?: string): Promise<NetworkFeeDto> {
    return this.fees.networkFee(tokenId, coinAmount, typeof network === 'string' && network ? network : undefined);
  }
}
