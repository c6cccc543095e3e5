import { AppError, INTERNAL_ERROR_MESSAGE, RateLimitedError } from '@ringfence/platform';
import { BusRemoteError, BusTimeoutError, BusUnavailableError } from './bus-errors';
import { remoteErrorFrom, toRpcFailure } from './rpc-failure';

describe(toRpcFailure.name, () => {
  it('keeps the code, status and message of an AppError below 500', () => {
    expect(toRpcFailure(new AppError('VALIDATION_FAILED', 'customer.email: must be an email'))).toEqual({
      failure: { code: 'VALIDATION_FAILED', status: 400, message: 'customer.email: must be an email' },
      expected: true,
    });
  });

  it('passes on the failure of a nested request unchanged', () => {
    const nested = new BusRemoteError('ringfence.rpc.lookup.v1', 'NOT_FOUND', 404, 'no such list');
    expect(toRpcFailure(nested).failure).toEqual({ code: 'NOT_FOUND', status: 404, message: 'no such list' });
  });

  it("keeps a 429's wait (a RateLimitedError's, or a nested request's), and the requester's error carries it", () => {
    const refused = toRpcFailure(new RateLimitedError(60, 'the account is already training a model'));
    expect(refused.failure).toEqual({ code: 'RATE_LIMITED', status: 429, message: 'the account is already training a model', retryAfterSeconds: 60 });
    const nested = remoteErrorFrom('ringfence.rpc.graph.network-features.v1', refused.failure);
    expect(nested.retryAfterSeconds).toBe(60);
    expect(toRpcFailure(nested).failure.retryAfterSeconds).toBe(60);
    expect(toRpcFailure(new AppError('NOT_FOUND', 'no model')).failure).not.toHaveProperty('retryAfterSeconds');
  });

  it('keeps the code and status of a coded server error but not its message', () => {
    const failure = toRpcFailure(Object.assign(new Error('pool exhausted on db01'), { code: 'DEPENDENCY_UNAVAILABLE', status: 503 }));
    expect(failure).toEqual({ failure: { code: 'DEPENDENCY_UNAVAILABLE', status: 503, message: INTERNAL_ERROR_MESSAGE }, expected: false });
  });

  it.each([
    ['a plain error', new Error('password=hunter2')],
    ['a Node system error (code, no status)', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['a status outside 400-599', Object.assign(new Error('odd'), { code: 'ODD', status: 200 })],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
  ])('maps %s to an unexpected INTERNAL 500 with the generic message', (_label, thrown) => {
    expect(toRpcFailure(thrown)).toEqual({ failure: { code: 'INTERNAL', status: 500, message: INTERNAL_ERROR_MESSAGE }, expected: false });
  });

  it.each([new BusTimeoutError('ringfence.rpc.x.v1', 100), new BusUnavailableError('broker down')])('maps %p from a dependency to a 503', (error) => {
    expect(toRpcFailure(error).failure).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', status: 503 });
  });

  it('names the service a timed-out request went to, and passes on what a nested failure names', () => {
    expect(toRpcFailure(new BusTimeoutError('ringfence.rpc.ingestion.read-entity-documents.v1', 450)).failure).toMatchObject({ unanswered: ['ingestion'] });
    expect(toRpcFailure(new BusUnavailableError('broker down')).failure).not.toHaveProperty('unanswered');
    const nested = new BusRemoteError('ringfence.rpc.graph.network-features.v1', 'DEPENDENCY_UNAVAILABLE', 503, 'lagging', undefined, ['the consumer group graph']);
    expect(toRpcFailure(nested).failure).toEqual({ code: 'DEPENDENCY_UNAVAILABLE', status: 503, message: expect.any(String), unanswered: ['the consumer group graph'] });
    expect(remoteErrorFrom('ringfence.rpc.scoring.customer-checkpoint.v1', toRpcFailure(nested).failure).unanswered).toEqual(['the consumer group graph']);
  });
});

describe(remoteErrorFrom.name, () => {
  it('builds the BusRemoteError the requester sees', () => {
    const error = remoteErrorFrom('ringfence.rpc.scoring.customer-checkpoint.v1', { code: 'CONFLICT', status: 409, message: 'under review' });
    expect(error).toBeInstanceOf(BusRemoteError);
    expect(error).toMatchObject({ topic: 'ringfence.rpc.scoring.customer-checkpoint.v1', code: 'CONFLICT', status: 409, message: 'under review' });
  });
});
