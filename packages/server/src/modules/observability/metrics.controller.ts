import { Controller, Get, Header, Inject, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { MetricsRoutes } from '@coinpurse/contract';
import { PublicAccess } from '../../common/access.decorator';
import { ForbiddenError, UnauthenticatedError } from '../../common/errors';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { MetricsService } from './metrics.service';

@ApiTags('health')
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(MetricsRoutes.metrics)
  @PublicAccess()
  @ApiBearerAuth()
  @ApiProduces('text/plain')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({
    description: 'Prometheus text format. With METRICS_TOKEN set, send it as a bearer token; otherwise only loopback addresses may scrape.',
    schema: { type: 'string' },
  })
  @ApiUnauthorizedResponse({ description: 'METRICS_TOKEN is set and the bearer token is missing or wrong.' })
  @ApiForbiddenResponse({ description: 'METRICS_TOKEN is not set and the caller is not on this machine.' })
  async getMetrics(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.authorize(request);
    await reply.type(this.metrics.contentType).send(await this.metrics.metrics());
  }

  private authorize(request: FastifyRequest): void {
    const expected = this.config.metricsToken;
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameSecret(given, expected)) throw new UnauthenticatedError('A valid metrics token is required.');
      return;
    }
    // The socket's address, not X-Forwarded-For: a proxy cannot make a remote scraper look local.
    if (!isLoopback(request.socket.remoteAddress)) {
      throw new ForbiddenError('Metrics are only served to this machine. Set METRICS_TOKEN to scrape from elsewhere.');
    }
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}
