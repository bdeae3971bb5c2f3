import { Controller, Get, HttpStatus, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { HealthRoutes } from '@coinpurse/contract';
import { PublicAccess } from '../../common/access.decorator';
import { ReadinessService } from './readiness.service';

/** Liveness and readiness probes for load balancers and orchestrators (terminus result format). */
@ApiTags('health')
@Controller(HealthRoutes.prefix)
export class ProbesController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessService,
  ) {}

  @Get(HealthRoutes.live)
  @PublicAccess()
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get(HealthRoutes.ready)
  @PublicAccess()
  @HealthCheck()
  async ready(@Res({ passthrough: true }) response: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.readiness.database(), () => this.readiness.prices()]);
    } catch (error) {
      // terminus reports "down" as a 503 exception; answer its result body as is (the error filter would hide it).
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(HttpStatus.SERVICE_UNAVAILABLE);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
