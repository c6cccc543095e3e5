import { BusUnavailableError } from './bus-errors';
import { BusLifecycle } from './bus-lifecycle';

describe(BusLifecycle.name, () => {
  it('connects once for concurrent starts and is then started', async () => {
    const lifecycle = new BusLifecycle();
    const connect = jest.fn(async () => undefined);
    await Promise.all([lifecycle.start(connect), lifecycle.start(connect)]);
    await lifecycle.start(connect);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(lifecycle.state).toBe('started');
    expect(lifecycle.requestRefusal()).toBeUndefined();
  });

  it('returns to created after a failed start, so it can be started again', async () => {
    const lifecycle = new BusLifecycle();
    await expect(lifecycle.start(async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(lifecycle.state).toBe('created');
    await lifecycle.start(async () => undefined);
    expect(lifecycle.state).toBe('started');
  });

  it('lets a stop wait for a start under way and tells the shutdown it had started', async () => {
    const lifecycle = new BusLifecycle();
    let finishConnect!: () => void;
    const started = lifecycle.start(() => new Promise<void>((resolve) => (finishConnect = resolve)));
    const shutdown = jest.fn(async (_wasRunning: boolean) => undefined);
    const stopped = lifecycle.stop(shutdown);
    finishConnect();
    await Promise.all([started, stopped]);
    expect(shutdown).toHaveBeenCalledWith(true);
    expect(lifecycle.state).toBe('stopped');
  });

  it('allows publishing while stopping but not requests, and nothing after', async () => {
    const lifecycle = new BusLifecycle();
    expect(() => lifecycle.assertCanPublish()).toThrow(BusUnavailableError);
    await lifecycle.start(async () => undefined);
    let seenWhileStopping: { publish: boolean; refusal: unknown } | undefined;
    await lifecycle.stop(async () => {
      seenWhileStopping = { publish: (() => (lifecycle.assertCanPublish(), true))(), refusal: lifecycle.requestRefusal() };
    });
    expect(seenWhileStopping).toEqual({ publish: true, refusal: expect.any(BusUnavailableError) });
    expect(() => lifecycle.assertCanPublish()).toThrow(BusUnavailableError);
    await expect(lifecycle.start(async () => undefined)).rejects.toThrow(/create a new one/);
  });

  it('refuses registrations once started', async () => {
    const lifecycle = new BusLifecycle();
    expect(() => lifecycle.assertRegistering()).not.toThrow();
    await lifecycle.start(async () => undefined);
    expect(() => lifecycle.assertRegistering()).toThrow(/before start/);
  });
});
