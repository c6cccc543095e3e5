import { StartupLoads } from './startup-loads';

describe(StartupLoads.name, () => {
  it('is done once every tracked load has settled, a failed one included, and raises no failure again', async () => {
    const loads = new StartupLoads();
    let finish: () => void = () => undefined;
    loads.track('documents', new Promise<void>((resolve) => (finish = resolve)));
    loads.track('broken', Promise.reject(new Error('the database is down')));
    expect(loads.isDone()).toBe(false);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(loads.isDone()).toBe(true);
  });
});
