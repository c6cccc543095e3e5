import { EventEmitter } from 'node:events';
import { STOP_SIGNALS, stopOnSignals } from './graceful-stop';

function harness(close: () => Promise<void> = async () => undefined) {
  const signals = new EventEmitter();
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const logger = {
    info: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'info', fields, message }),
    error: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'error', fields, message }),
  };
  const exits: number[] = [];
  const app = { close: jest.fn(close) };
  const remove = stopOnSignals(app, { serviceName: 'scoring', logger: logger as never, exit: (code) => exits.push(code), signals: signals as never });
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  return { signals, lines, exits, app, remove, settled };
}

describe(stopOnSignals.name, () => {
  it('closes the app on SIGTERM, logs when it begins and ends, and exits 0', async () => {
    const { signals, lines, exits, app, settled } = harness();
    signals.emit('SIGTERM');
    await settled();
    expect(app.close).toHaveBeenCalledTimes(1);
    expect(lines.map(({ message, fields }) => [message, fields.signal])).toEqual([
      ['scoring stopping', 'SIGTERM'],
      ['scoring stopped', 'SIGTERM'],
    ]);
    expect(exits).toEqual([0]);
  });

  it('exits 1 and logs the error when closing fails', async () => {
    const { signals, lines, exits, settled } = harness(async () => {
      throw new Error('the database would not close');
    });
    signals.emit('SIGINT');
    await settled();
    expect(lines.at(-1)).toMatchObject({ level: 'error', message: 'scoring did not stop cleanly' });
    expect(exits).toEqual([1]);
  });

  it('ends at once with status 1 on a second signal while stopping', async () => {
    const { signals, exits, app } = harness(() => new Promise(() => undefined));
    signals.emit('SIGTERM');
    signals.emit('SIGINT');
    expect(app.close).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([1]);
  });

  it('listens to SIGTERM, SIGINT and SIGHUP only (SIGUSR2 is for heap snapshots), and removes its handlers', () => {
    const { signals, remove } = harness();
    expect([...STOP_SIGNALS, 'SIGUSR2'].map((signal) => signals.listenerCount(signal))).toEqual([1, 1, 1, 0]);
    remove();
    expect(STOP_SIGNALS.map((signal) => signals.listenerCount(signal))).toEqual([0, 0, 0]);
  });
});
