import { Module } from '@nestjs/common';
import { AdminTicketsController, TicketsController } from './tickets.controller';
import { TicketsRepository } from './tickets.repository';
import { TicketsService } from './tickets.service';

@Module({ controllers: [TicketsController, AdminTicketsController], providers: [TicketsRepository, TicketsService] })
export class TicketsModule {}
