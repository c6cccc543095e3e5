import { OutageLog } from './outage-log';

function harness() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const logger = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'warn', fields, message }),
    info: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'info', fields, message }),
  };
  let now = 1_000_000;
  const log = new OutageLog(logger as never, { effect: 'checkpoints answered degraded', summaryEveryMs: 60_000, now: () => now });
  return { log, lines, advance: (ms: number) => (now += ms) };
}

describe(OutageLog.name, () => {
  it('logs the first failure of an outage with its fields, and only counts the next ones', () => {
    const { log, lines } = harness();
    for (let i = 0; i < 500; i += 1) log.failed('ingestion (asked by scoring)', { traceId: `t-${i}` });
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { dependency: 'ingestion (asked by scoring)', traceId: 't-0' },
        message: expect.stringMatching(/^ingestion \(asked by scoring\) did not answer: checkpoints answered degraded; later failures are counted/),
      },
    ]);
  });

  it('counts an outage that goes on in one line a minute, and closes it with a count when it answers again', () => {
    const { log, lines, advance } = harness();
    log.failed('scoring');
    advance(30_000);
    log.failed('scoring');
    advance(31_000);
    log.failed('scoring');
    advance(9_000);
    log.answered();
    log.answered();
    expect(lines.slice(1)).toEqual([
      { level: 'warn', fields: { dependency: 'scoring', failures: 2, totalFailures: 3, outageMs: 61_000 }, message: 'scoring still does not answer: 2 more checkpoints answered degraded in the last 61 s' },
      { level: 'info', fields: { dependency: 'scoring', totalFailures: 3, outageMs: 70_000 }, message: 'scoring answers again after 3 checkpoints answered degraded over 70 s' },
    ]);
  });

  it('keeps the outages of different dependencies apart, and starts a new one after a recovery', () => {
    const { log, lines } = harness();
    log.failed('scoring');
    log.failed('the consumer group graph (waited for by graph)');
    log.failed('scoring');
    log.answered();
    log.failed('scoring');
    expect(lines.map(({ level, fields }) => [level, fields.dependency])).toEqual([
      ['warn', 'scoring'],
      ['warn', 'the consumer group graph (waited for by graph)'],
      ['info', 'scoring'],
      ['info', 'the consumer group graph (waited for by graph)'],
      ['warn', 'scoring'],
    ]);
  });
});
