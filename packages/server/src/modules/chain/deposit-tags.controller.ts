import { Controller, Get, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DepositReviewRoutes, DepositTagOwnerDto } from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { DepositTagsService } from './deposit-tags.service';

@ApiTags('admin-chain')
@Controller()
export class DepositTagsController {
  constructor(private readonly tags: DepositTagsService) {}

  @Get(DepositReviewRoutes.depositTag)
  @AdminAccess('read')
  @ApiOperation({ summary: 'The customer behind a destination tag (xrp) or memo (stellar)' })
  @ApiParam({ name: 'network', example: 'xrp', description: 'xrp or stellar' })
  @ApiParam({ name: 'tag', example: '482913577', description: 'The destination tag or memo sent with the deposit' })
  @ApiOkResponse({ type: DepositTagOwnerDto, description: 'Whom a deposit to the shared address with this tag or memo is for.' })
  @ApiBadRequestResponse({ description: 'A network without tags, or a value that is not a tag (a whole number from 0 to 4294967295).' })
  @ApiNotFoundResponse({ description: 'No customer has this tag on the network.' })
  getDepositTagOwner(@Param('network') network: string, @Param('tag') tag: string): Promise<DepositTagOwnerDto> {
    return this.tags.owner(network, tag);
  }
}
