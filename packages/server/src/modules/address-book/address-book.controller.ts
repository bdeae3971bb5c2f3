import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AddAddressDto, AddressBookDto, AddressMutationResponseDto, AllowlistResponseDto, NetworkRoutes, SetAllowlistDto } from '@coinpurse/contract';
import { UserAccess } from '../../common/access.decorator';
import { type Actor, CurrentActor, CurrentPrincipal, type Principal } from '../../common/principal';
import { AddressBookService } from './address-book.service';

@ApiTags('wallet-addresses')
@Controller()
export class AddressBookController {
  constructor(private readonly addressBook: AddressBookService) {}

  @Get(NetworkRoutes.addresses)
  @UserAccess('read')
  @ApiOperation({ summary: 'Saved withdrawal addresses and the allowlist setting' })
  @ApiOkResponse({ type: AddressBookDto })
  getAddresses(@CurrentActor() actor: Actor): Promise<AddressBookDto> {
    return this.addressBook.list(actor.id);
  }

  @Post(NetworkRoutes.addresses)
  @UserAccess('session-only')
  @ApiOperation({
    summary: 'Save a withdrawal address',
    description:
      'Validated like a send (token, network, address, memo). A duplicate → 409. The customer is notified and mailed. While the allowlist is on, the address can be used after the hold period (ADDRESS_HOLD_HOURS).',
  })
  @ApiCreatedResponse({ type: AddressMutationResponseDto })
  @ApiConflictResponse({ description: 'Already saved' })
  addAddress(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: AddAddressDto): Promise<AddressMutationResponseDto> {
    return this.addressBook.add(principal, actor.requestId, body);
  }

  @Put(NetworkRoutes.allowlist)
  @UserAccess('session-only')
  @ApiOperation({
    summary: 'Turn allowlist mode on or off',
    description: 'While on, sends go only to saved addresses (others → 403). Turning it off notifies and mails the customer.',
  })
  @ApiOkResponse({ type: AllowlistResponseDto })
  setAllowlist(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: SetAllowlistDto): Promise<AllowlistResponseDto> {
    return this.addressBook.setAllowlist(principal, actor.requestId, body);
  }

  @Delete(NetworkRoutes.address)
  @UserAccess('session-only')
  @ApiOkResponse({ type: AddressMutationResponseDto })
  @ApiNotFoundResponse({ description: 'Not found (or not yours)' })
  @ApiForbiddenResponse({ description: 'Not a customer' })
  deleteAddress(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<AddressMutationResponseDto> {
    return this.addressBook.remove(principal, actor.requestId, id);
  }
}
