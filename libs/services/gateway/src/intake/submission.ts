import type { Principal } from '@ringfence/accounts';
import type { FastifyRequest } from 'fastify';
import type { Submission } from './event-intake.service';

/** What a route hands to the intake: the caller, the subject its events are ordered by, the payload, the request's trace id. */
export function submissionOf<T>(principal: Principal, subjectId: string, payload: T, request: FastifyRequest): Submission<T> {
  return { principal, subjectId, payload, traceId: String(request.id) };
}

/** The envelope of a 200 answer that carries data. */
export function answered<D>(data: D): { status: 200; timestamp: number; data: D } {
  return { status: 200, timestamp: Date.now(), data };
}
