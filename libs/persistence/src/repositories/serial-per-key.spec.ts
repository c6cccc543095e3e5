import { SerialPerKey } from './serial-per-key';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe(SerialPerKey.name, () => {
  it('runs the tasks of one key one after another, in order, and other keys beside them', async () => {
    const queue = new SerialPerKey();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = queue.run('a', async () => {
      log.push('a1 start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('a1 end');
    });
    const second = queue.run('a', async () => void log.push('a2'));
    const other = queue.run('b', async () => void log.push('b1'));
    await other;
    await tick();
    expect(log).toEqual(['a1 start', 'b1']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
    await tick();
    expect(queue.busyKeys).toBe(0);
  });

  it('runs the next task of a key after one failed, and gives each caller its own outcome', async () => {
    const queue = new SerialPerKey();
    const failed = queue.run('a', async () => {
      throw new Error('the database is down');
    });
    const next = queue.run('a', async () => 'stored');
    await expect(failed).rejects.toThrow('the database is down');
    await expect(next).resolves.toBe('stored');
  });
});
