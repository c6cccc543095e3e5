import type { DataSource, QueryRunner } from 'typeorm';

/** Resolves once some other session waits for a lock `holder`'s session holds. */
export async function waitUntilBlockedBy(dataSource: DataSource, holder: QueryRunner): Promise<void> {
  const [{ pid }] = (await holder.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const [{ waiting }] = await dataSource.query<{ waiting: number }[]>(
      'SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
      [pid],
    );
    if (waiting > 0) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no session waited for backend ${pid} within 2 s`);
}
