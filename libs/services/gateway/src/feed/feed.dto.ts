import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';

export const MAX_FEED_PAGE = 1000;

export class FeedPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', example: 0, description: 'Return events after this sequence number (the `next` of the previous page); 0 from the start.' })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'must be an integer' }) @Min(0) after = 0;

  @ApiPropertyOptional({ type: 'integer', example: 500, description: `Events to read, 1 to ${MAX_FEED_PAGE}; default ${MAX_FEED_PAGE}.` })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'must be an integer' }) @Min(1) @Max(MAX_FEED_PAGE) limit = MAX_FEED_PAGE;

  @ApiPropertyOptional({ example: 'acc_01JCZ3V9Q8', description: 'Only this account\'s events.' })
  @IsOptional() @IsString() @MinLength(1) accountId?: string;
}

export class FeedEventDto {
  @ApiProperty({ type: 'integer', example: 42, description: 'Position in the topic; increasing.' }) sequence!: number;
  @ApiProperty({ example: 'acc_01JCZ3V9Q8:live:cus-61213', description: 'The partition key: account, environment, subject.' }) key!: string;
  @ApiProperty({ description: 'The message envelope (eventId, accountId, environment, subjectId, acceptedAt, traceId, payload), as on Kafka.' })
  envelope!: Record<string, unknown>;
}

export class FeedPageDto {
  @ApiProperty({ example: 'ringfence.ingest.customer.updated.v1' }) topic!: string;
  @ApiProperty({ type: () => [FeedEventDto] }) events!: FeedEventDto[];
  @ApiProperty({ type: 'integer', example: 1042, description: 'Pass as `after` to read on.' }) next!: number;
  @ApiProperty({ example: false, description: 'True when this page reached the end of the topic (for now).' }) done!: boolean;
}

export class FeedTopicsDto {
  @ApiProperty({ example: ['ringfence.ingest.customer.updated.v1'], description: 'The warehouse-feed topics.' }) topics!: string[];
}
