import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiNotFoundResponse, ApiNotModifiedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { MarketCoinDto, MarketListQueryDto, MarketRoutes, MarketStatusDto, PriceHistoryDto, PriceHistoryQueryDto, WalletTokenDto } from '@coinpurse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RouteConfig } from '@nestjs/platform-fastify';
import { PublicAccess, UserAccess } from '../../common/access.decorator';
import type { RequestLogConfig } from '../observability/logging';
import { MARKET_LIST_LOG_SAMPLE } from './market-list.route';
import { CurrentPrincipal, type Principal } from '../../common/principal';
import { MarketCacheService } from './market-cache.service';
import { etagMatches, writeMarketList } from './market-list.response';

export { etagMatches };
import { MarketService } from './market.service';
import { PRICE_HISTORY_CACHE_SECONDS, PriceHistoryService } from './price-history.service';

@ApiTags('market')
@Controller()
export class MarketController {
  constructor(
    private readonly market: MarketService,
    private readonly cache: MarketCacheService,
    private readonly priceHistory: PriceHistoryService,
  ) {}

  @Get(MarketRoutes.getCrypto)
  @PublicAccess()
  @RouteConfig({ logSample: MARKET_LIST_LOG_SAMPLE } satisfies RequestLogConfig)
  @ApiOperation({
    summary: 'Market coins by market cap, custom tokens (manual_price) last; `limit` keeps the first ones. Cached; ETag / If-None-Match → 304.',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a copy the client holds' })
  @ApiOkResponse({ type: [MarketCoinDto] })
  @ApiNotModifiedResponse({ description: 'The list has not changed since the given ETag' })
  async getCrypto(@Query() query: MarketListQueryDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const entry = await this.cache.get(query.limit ? Number(query.limit) : undefined);
    // The same writer as the route's hook for the plain list (market-list.route.ts): prebuilt header lists and bodies.
    reply.hijack();
    writeMarketList(request.raw, reply.raw, entry);
  }

  @Get(MarketRoutes.getWalletTokens)
  @UserAccess('read')
  @ApiOkResponse({
    type: [WalletTokenDto],
    description:
      "The supported tokens: market coin fields plus the deposit address (null until set). On a network connected to a node the address is the customer's own (allocated once).",
  })
  getWalletTokens(@CurrentPrincipal() principal: Principal): Promise<WalletTokenDto[]> {
    // Only customers get addresses of their own (an admin browsing the customer API sees the admin-set ones).
    return this.market.walletTokens(principal.role === 'user' ? principal.id : undefined);
  }

  @Get(MarketRoutes.marketStatus)
  @PublicAccess()
  @ApiOkResponse({ type: MarketStatusDto, description: 'Whether prices are live or from the offline snapshot, and as of when (beyond the spec).' })
  getMarketStatus(): Promise<MarketStatusDto> {
    return this.market.status();
  }

  @Get(MarketRoutes.priceHistory)
  @PublicAccess()
  @ApiOperation({ summary: 'Price history for charts (beyond the spec). Cached for a minute; ETag / If-None-Match → 304.' })
  @ApiParam({ name: 'coinId', example: 'bitcoin' })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a copy the client holds' })
  @ApiOkResponse({ type: PriceHistoryDto })
  @ApiNotModifiedResponse({ description: 'The history has not changed since the given ETag' })
  @ApiNotFoundResponse({ description: 'Coin not found.' })
  async getPriceHistory(
    @Param('coinId') coinId: string,
    @Query() query: PriceHistoryQueryDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const entry = await this.priceHistory.history(coinId, query.range ?? '7d');
    reply.header('ETag', entry.etag);
    reply.header('Cache-Control', `public, max-age=${PRICE_HISTORY_CACHE_SECONDS}`);
    if (etagMatches(request.headers['if-none-match'], entry.etag)) {
      await reply.status(304).send();
      return;
    }
    await reply.status(200).type('application/json; charset=utf-8').send(entry.body);
  }
}
