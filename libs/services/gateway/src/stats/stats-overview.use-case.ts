import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import { MAX_FRAUD_FACTS, RpcTopics, type StatsOverviewQueryDto, type StatsOverviewResponseDto } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';

/** The envelope's subject: the overview is about the data set, not one customer. */
const STATS_SUBJECT_ID = 'stats';

/**
 * `GET /v2/stats/overview`: each owner aggregates its own data and the gateway joins them.
 * Labelling answers the subjects labelled FRAUDSTER and the graph the PSP transactions with a
 * dispute (asked at once); scoring, which owns the decision records, then counts the window's
 * decisions in SQL, those on that known fraud among them (caught: PREVENT or REVIEW; missed:
 * ALLOW). Three requests, each counted against the account's rate limit like every read.
 */
@Injectable()
export class StatsOverviewUseCase {
  constructor(private readonly owner: OwnerRequests) {}

  async overview(principal: Principal, query: StatsOverviewQueryDto, traceId: string): Promise<StatsOverviewResponseDto> {
    if (query.from !== undefined && query.to !== undefined && query.to <= query.from) throw new AppError('VALIDATION_FAILED', 'to: must be greater than from');
    const [labelled, disputed] = await Promise.all([
      this.owner.ask(principal, traceId, STATS_SUBJECT_ID, RpcTopics.fraudSubjects, { limit: MAX_FRAUD_FACTS }),
      this.owner.ask(principal, traceId, STATS_SUBJECT_ID, RpcTopics.disputedTransactions, { limit: MAX_FRAUD_FACTS }),
    ]);
    const stats = await this.owner.ask(principal, traceId, STATS_SUBJECT_ID, RpcTopics.decisionStats, {
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      ...(query.bucket === undefined ? {} : { bucket: query.bucket }),
      fraudSubjects: labelled.subjects,
      fraudTransactions: disputed.transactionIds,
    });
    return {
      status: 200,
      timestamp: Date.now(),
      data: {
        ...stats,
        fraud: {
          ...stats.fraud,
          fraudSubjects: labelled.subjects.length,
          disputedTransactions: disputed.transactionIds.length,
          truncated: labelled.truncated || disputed.truncated,
        },
      },
    };
  }
}
