import { BusTimeoutError, type MessageBus } from '@ringfence/bus';
import { RpcTopics } from '@ringfence/contracts';
import { createLogger, loadConfig } from '@ringfence/platform';
import { GraphFacts } from './graph-facts';

const definition = { checkpoint: 'customer', voucherUse: () => null } as never;
const message = { traceId: 'trace-1', accountId: 'acc_1', environment: 'test', subjectId: 'cus-1', payload: {} } as never;
const request = { subject: { kind: 'customer', id: 'cus-1' }, settings: {}, timestamp: 1_763_800_000_000 } as never;

function graphFacts(answers: Array<'down' | 'up'>) {
  const bus = {
    request: jest.fn(async (topic: string) => {
      if (answers.shift() === 'down') throw new BusTimeoutError(topic, 250);
      return { customerCount: 1 };
    }),
  } as unknown as MessageBus;
  const logger = createLogger({ level: 'silent', service: 'scoring' });
  const lines: Array<[string, string]> = [];
  jest.spyOn(logger, 'warn').mockImplementation(((_fields: object, text: string) => lines.push(['warn', text])) as never);
  jest.spyOn(logger, 'info').mockImplementation(((_fields: object, text: string) => lines.push(['info', text])) as never);
  return { facts: new GraphFacts(bus, loadConfig({}, { port: 8080 }), logger), lines, bus };
}

describe(GraphFacts.name, () => {
  it('scores without the network while the graph does not answer, logging the outage once and its end with a count', async () => {
    const { facts, lines, bus } = graphFacts(['down', 'down', 'down', 'up']);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await facts.of(definition, message, request));

    expect(answers.map(({ network }) => network)).toEqual([null, null, null, { customerCount: 1 }]);
    expect(jest.mocked(bus.request).mock.calls.map(([topic]) => topic)).toEqual(Array(4).fill(RpcTopics.graphNetworkFeatures));
    expect(lines).toEqual([
      ['warn', expect.stringMatching(/^graph did not answer: checkpoints scored without the graph/)],
      ['info', expect.stringMatching(/^graph answers again after 3 checkpoints scored without the graph/)],
    ]);
  });
});
