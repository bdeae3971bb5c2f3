import { Body, Controller, Delete, Get, Param, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath, ApiExtraModels } from '@nestjs/swagger';
import {
  AddCustomTokenDto,
  AddTokenDto,
  AdminTokenListItemDto,
  CustomTokenDto,
  CustomTokenMutationResponseDto,
  DeleteTokenResponseDto,
  EditCustomTokenDto,
  EditTokenDto,
  TokenMutationResponseDto,
  TokenRoutes,
} from '@coinpurse/contract';
import { AdminAccess } from '../../common/access.decorator';
import { ImageUploadInterceptor, type UploadedImageFile } from '../../common/image-upload';
import { type Actor, CurrentActor } from '../../common/principal';
import { CustomTokensService } from './custom-tokens.service';
import { MarketTokensService } from './market-tokens.service';

@ApiTags('admin-tokens')
@ApiExtraModels(AddCustomTokenDto)
@Controller()
export class TokensController {
  constructor(
    private readonly marketTokens: MarketTokensService,
    private readonly customTokens: CustomTokensService,
  ) {}

  @Get(TokenRoutes.getTokens)
  @AdminAccess('read')
  @ApiOkResponse({
    type: [AdminTokenListItemDto],
    description: 'Supported market tokens, one row per network (custom tokens are listed by get-custom-tokens).',
  })
  getTokens(): Promise<AdminTokenListItemDto[]> {
    return this.marketTokens.listTokens();
  }

  @Post(TokenRoutes.addToken)
  @AdminAccess('operate')
  @ApiOperation({
    summary: 'Support a market coin with a deposit address',
    description: "Unknown coin → 400; already supported → 409; the address is validated for the token's network.",
  })
  @ApiCreatedResponse({ type: TokenMutationResponseDto })
  addToken(@CurrentActor() actor: Actor, @Body() body: AddTokenDto): Promise<TokenMutationResponseDto> {
    return this.marketTokens.addToken(actor, body);
  }

  @Put(TokenRoutes.editToken)
  @AdminAccess('operate')
  @ApiOperation({
    summary: 'Change a supported token (coin id and/or deposit address)',
    description: 'A rename is refused (409) while customers hold the token.',
  })
  @ApiOkResponse({ type: TokenMutationResponseDto })
  editToken(@CurrentActor() actor: Actor, @Body() body: EditTokenDto): Promise<TokenMutationResponseDto> {
    return this.marketTokens.editToken(actor, body);
  }

  @Delete(TokenRoutes.deleteToken)
  @AdminAccess('operate')
  @ApiOperation({ summary: 'Stop supporting a token', description: 'Soft delete; 409 while any customer holds a balance or a pending transaction in it.' })
  @ApiOkResponse({ type: DeleteTokenResponseDto })
  deleteToken(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('name') name: string): Promise<DeleteTokenResponseDto> {
    return this.marketTokens.deleteToken(actor, id, name);
  }

  @Get(TokenRoutes.getCustomTokens)
  @AdminAccess('read')
  @ApiOkResponse({ type: [CustomTokenDto] })
  getCustomTokens(): Promise<CustomTokenDto[]> {
    return this.customTokens.listCustomTokens();
  }

  @Post(TokenRoutes.addCustomToken)
  @AdminAccess('operate')
  @UseInterceptors(ImageUploadInterceptor())
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      allOf: [
        { $ref: getSchemaPath(AddCustomTokenDto) },
        { type: 'object', properties: { image: { type: 'string', format: 'binary', description: 'One PNG, JPEG, WebP or GIF image, at most 5 MB' } } },
      ],
    },
  })
  @ApiOperation({
    summary: 'Create a custom token (manual price)',
    description: 'Numbers arrive as form strings and are validated as exact decimals. The image is optional (PNG, JPEG, WebP or GIF, ≤ 5 MB).',
  })
  @ApiCreatedResponse({ type: CustomTokenMutationResponseDto })
  addCustomToken(
    @CurrentActor() actor: Actor,
    @Body() body: AddCustomTokenDto,
    @UploadedFile() image?: UploadedImageFile,
  ): Promise<CustomTokenMutationResponseDto> {
    return this.customTokens.addCustomToken(actor, body, image);
  }

  @Put(TokenRoutes.editCustomToken)
  @AdminAccess('operate')
  @ApiOperation({ summary: 'Edit a custom token: name, address and optionally its manual prices (audited)' })
  @ApiOkResponse({ type: CustomTokenMutationResponseDto })
  editCustomToken(@CurrentActor() actor: Actor, @Body() body: EditCustomTokenDto): Promise<CustomTokenMutationResponseDto> {
    return this.customTokens.editCustomToken(actor, body);
  }

  @Delete(TokenRoutes.deleteCustomToken)
  @AdminAccess('operate')
  @ApiOperation({
    summary: 'Delete a custom token',
    description: "Each path segment may be the record's _id or the coin id. Soft delete; 409 while customers hold it.",
  })
  @ApiOkResponse({ type: DeleteTokenResponseDto })
  deleteCustomToken(@CurrentActor() actor: Actor, @Param('_id') first: string, @Param('id') second: string): Promise<DeleteTokenResponseDto> {
    return this.customTokens.deleteCustomToken(actor, first, second);
  }
}
