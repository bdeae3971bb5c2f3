import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NetworkDto, NetworkRoutes } from '@coinpurse/contract';
import { PublicAccess } from '../../common/access.decorator';
import { NetworksService } from './networks.service';

@ApiTags('market')
@Controller()
export class NetworksController {
  constructor(private readonly networks: NetworksService) {}

  @Get(NetworkRoutes.getNetworks)
  @PublicAccess()
  @ApiOperation({
    summary: 'The blockchain networks coins move on',
    description: 'Id, display name, explorer URL patterns (`{tx}`, `{address}`) and whether transfers take a memo / destination tag.',
  })
  @ApiOkResponse({ type: [NetworkDto] })
  getNetworks(): NetworkDto[] {
    return this.networks.list();
  }
}
