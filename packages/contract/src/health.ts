import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';

  @ApiProperty({ enum: ['pglite', 'postgres'] })
  database: 'pglite' | 'postgres';

  @ApiProperty({ format: 'date-time' })
  time: string;
}
