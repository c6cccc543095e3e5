import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import {
  DEFAULT_DECISIONS_PAGE,
  type DecisionListQueryDto,
  type DecisionListResponseDto,
  type ReadDecisionsRequest,
  RpcTopics,
  decodeDecisionCursor,
  encodeDecisionCursor,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';

/** The envelope's subject: the list is about the data set, not one customer. */
const DECISIONS_SUBJECT_ID = 'decisions';

/**
 * `GET /v2/decisions` (ADR-0014): one request to scoring, which owns the decision records,
 * counted against the account's rate limit like every read. The cursor is opaque to clients: the
 * position scoring answers, encoded here, and decoded back (its validity checked by the DTO).
 */
@Injectable()
export class DecisionListUseCase {
  constructor(private readonly owner: OwnerRequests) {}

  async list(principal: Principal, query: DecisionListQueryDto, traceId: string): Promise<DecisionListResponseDto> {
    const problems = crossFieldProblems(query);
    if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join('; '));
    const after = query.cursor === undefined ? null : decodeDecisionCursor(query.cursor);
    const request: ReadDecisionsRequest = {
      limit: query.limit ?? DEFAULT_DECISIONS_PAGE,
      ...(query.checkpoint === undefined ? {} : { checkpoint: query.checkpoint }),
      ...(query.action === undefined ? {} : { action: query.action }),
      ...(query.subjectType === undefined ? {} : { subjectType: query.subjectType }),
      ...(query.subjectId === undefined ? {} : { subjectId: query.subjectId }),
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      ...(query.open === true ? { open: true } : {}),
      ...(after === null ? {} : { after }),
    };
    const { decisions, next } = await this.owner.ask(principal, traceId, DECISIONS_SUBJECT_ID, RpcTopics.readDecisions, request);
    return { status: 200, timestamp: Date.now(), data: { decisions, nextCursor: next === null ? null : encodeDecisionCursor(next) } };
  }
}

/** What the parameters mean together; each problem names its parameter (ADR-0001). */
function crossFieldProblems(query: DecisionListQueryDto): string[] {
  const problems: string[] = [];
  if (query.subjectId !== undefined && query.subjectType === undefined) problems.push('subjectType: is required with subjectId (customer or supplier)');
  if (query.from !== undefined && query.to !== undefined && query.to <= query.from) problems.push('to: must be greater than from');
  if (query.open === true && query.action !== undefined && query.action !== 'REVIEW') problems.push('action: must be REVIEW or absent with open=true (the review queue holds REVIEW decisions only)');
  return problems;
}
