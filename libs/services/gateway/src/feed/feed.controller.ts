import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { EVENT_LOG_STORE, type EventLogStore } from '@ringfence/bus';
import { WAREHOUSE_FEED_TOPICS } from '@ringfence/contracts';
import { AppError, type RingfenceConfig } from '@ringfence/platform';
import { AdminRoute, RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { FeedPageDto, FeedPageQueryDto, FeedTopicsDto } from './feed.dto';

/**
 * The embedded mode's warehouse feed: the same events the distributed mode puts on Kafka, read
 * page by page from the append-only event log (`ringfence feed export` follows the pages).
 */
@ApiTags('Admin')
@ApiSecurity('adminToken')
@Controller('admin/feed')
export class FeedController {
  constructor(
    @Inject(EVENT_LOG_STORE) private readonly log: EventLogStore,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
  ) {}

  @AdminRoute()
  @Get()
  @ApiOperation({ summary: 'List the warehouse-feed topics', description: 'Every ingest, decision and label topic.' })
  @ApiOkResponse({ type: FeedTopicsDto })
  @ApiErrorResponses(401, 403)
  topics(): FeedTopicsDto {
    return { topics: [...WAREHOUSE_FEED_TOPICS] };
  }

  @AdminRoute()
  @Get(':topic')
  @ApiOperation({
    summary: 'Read a warehouse-feed topic (embedded mode)',
    description:
      'Events in the order they were accepted, at most `limit` after `after`. In the distributed mode the feed is on Kafka and this answers 409 naming the topic to consume.',
  })
  @ApiParam({ name: 'topic', example: 'ringfence.ingest.customer.updated.v1' })
  @ApiQuery({ type: FeedPageQueryDto })
  @ApiOkResponse({ type: FeedPageDto })
  @ApiErrorResponses(400, 401, 403, 404, 409)
  async page(@Param('topic') topic: string, @Query() query: FeedPageQueryDto): Promise<FeedPageDto> {
    if (!WAREHOUSE_FEED_TOPICS.includes(topic)) throw new AppError('NOT_FOUND', `${topic} is not a warehouse-feed topic; GET /admin/feed lists them`);
    if (this.config.kafkaBrokers) throw new AppError('CONFLICT', `the feed is on Kafka in this deployment: consume ${topic} from ${this.config.kafkaBrokers.join(',')}`);
    const read = await this.log.readAfter(topic, query.after, query.limit);
    const events = read
      .filter((event) => query.accountId === undefined || event.envelope.accountId === query.accountId)
      .map(({ sequence, key, envelope }) => ({ sequence, key, envelope: envelope as unknown as Record<string, unknown> }));
    return { topic, events, next: read.at(-1)?.sequence ?? query.after, done: read.length < query.limit };
  }
}
