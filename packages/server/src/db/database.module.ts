import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DATABASE, type DatabaseHandle } from './database';

export const DATABASE_HANDLE = Symbol('DATABASE_HANDLE');

/** The database is opened (and migrated) before Nest builds the app; this module only hands it out and closes it. */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle) {}

  static register(handle: DatabaseHandle): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_HANDLE, useValue: handle },
        { provide: DATABASE, useValue: handle.db },
      ],
      exports: [DATABASE, DATABASE_HANDLE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle.close();
  }
}
