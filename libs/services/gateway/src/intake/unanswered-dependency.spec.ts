import { BusRemoteError, BusTimeoutError } from '@ringfence/bus';
import { unansweredDependency } from './unanswered-dependency';

const CHECKPOINT = 'ringfence.rpc.scoring.customer-checkpoint.v1';

describe(unansweredDependency.name, () => {
  it('names the service asked when nothing came back', () => {
    expect(unansweredDependency(new BusTimeoutError(CHECKPOINT, 500), 'scoring')).toEqual({ inWarning: 'scoring', inLog: 'scoring' });
  });

  it('names what the service asked waited for, when its failed reply says', () => {
    const ingestion = new BusRemoteError(CHECKPOINT, 'DEPENDENCY_UNAVAILABLE', 503, 'x', undefined, ['ingestion']);
    expect(unansweredDependency(ingestion, 'scoring')).toEqual({ inWarning: 'ingestion, which scoring waits for,', inLog: 'ingestion (for scoring)' });
    const group = new BusRemoteError(CHECKPOINT, 'DEPENDENCY_UNAVAILABLE', 503, 'x', undefined, ['the consumer group scoring-velocity']);
    expect(unansweredDependency(group, 'scoring').inWarning).toBe('the consumer group scoring-velocity, which scoring waits for,');
  });
});
