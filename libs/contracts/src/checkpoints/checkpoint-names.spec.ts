import { PAYLOAD_ROUTE_LIST } from '../messages/payload-routes';
import { CHECKPOINTS, PSP_CHECKPOINTS, RULE_CHECKPOINTS, scoringCheckpointOf } from './checkpoint-names';

describe('CHECKPOINTS', () => {
  it('are the checkpoint rows of the payload table, in its order', () => {
    expect(PAYLOAD_ROUTE_LIST.flatMap((route) => ('checkpoint' in route ? [route.checkpoint] : []))).toEqual([...CHECKPOINTS]);
  });

  it('name every checkpoint a rule can be written for, the PSP transaction’s twice', () => {
    expect(RULE_CHECKPOINTS.map(scoringCheckpointOf).sort()).toEqual([...CHECKPOINTS, 'transaction'].sort());
    expect(PSP_CHECKPOINTS.map(scoringCheckpointOf)).toEqual(['transaction', 'transaction']);
  });
});
