import { BusTimeoutError } from '@ringfence/bus';
import type { MessageEnvelope } from '@ringfence/contracts';
import type { CheckpointFacts } from '../checkpoint-facts';
import { ASK_ONCE, SubjectVerdicts, type Verdict } from './subject-verdicts';

const message = { accountId: 'acc_1', environment: 'test', eventId: 'evt', subjectId: 's', acceptedAt: 0, traceId: 't', payload: {} } as MessageEnvelope<unknown>;

/** Owners that time out `failures` times, then say the customer is labelled `review`. */
function facts(failures: number, review: string) {
  let calls = 0;
  return {
    calls: () => calls,
    facts: {
      currentLabels: async () => {
        calls += 1;
        if (calls <= failures) throw new BusTimeoutError('ringfence.rpc.labelling.read-current-labels.v1', 500);
        return { PAYMENT_FRAUD: { review } };
      },
      entities: async () => ({ subject: null, references: [] }),
    } as unknown as CheckpointFacts,
  };
}

describe(SubjectVerdicts.name, () => {
  it('reads fraud and genuine from the current labels, once per subject', async () => {
    const owners = facts(0, 'FRAUDSTER');
    const verdicts = new Map<string, Verdict>();
    const subject = { kind: 'customer' as const, id: 'c1' };

    await new SubjectVerdicts(owners.facts).learn(message, [subject, subject], false, verdicts);
    await new SubjectVerdicts(owners.facts).learn(message, [subject], false, verdicts);

    expect(verdicts.get('customer:c1')).toBe('fraud');
    expect(owners.calls()).toBe(1);
  });

  it('asks again, with patience, an owner that did not answer in time; asking once gives up', async () => {
    const patient = facts(2, 'GENUINE');
    const verdicts = new Map<string, Verdict>();
    await new SubjectVerdicts(patient.facts).learn(message, [{ kind: 'customer', id: 'c2' }], false, verdicts, { attempts: 3, firstDelayMs: 1 });
    expect(verdicts.get('customer:c2')).toBe('genuine');

    const hasty = facts(1, 'GENUINE');
    await expect(new SubjectVerdicts(hasty.facts).learn(message, [{ kind: 'customer', id: 'c3' }], false, new Map(), ASK_ONCE)).rejects.toBeInstanceOf(BusTimeoutError);
  });
});
