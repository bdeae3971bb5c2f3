import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ProbesController } from './probes.controller';
import { ReadinessService } from './readiness.service';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController, ProbesController],
  providers: [ReadinessService],
})
export class HealthModule {}
