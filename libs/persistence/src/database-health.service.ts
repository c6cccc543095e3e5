import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** How long readiness waits for the database before answering "not ready". */
export const DATABASE_READY_TIMEOUT_MS = 1_000;

/** The database part of `/health/ready`. */
@Injectable()
export class DatabaseHealth {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** True when a `SELECT 1` answers within `DATABASE_READY_TIMEOUT_MS`; never throws or hangs. */
  async isReady(): Promise<boolean> {
    if (!this.dataSource.isInitialized) {
      return false;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_READY_TIMEOUT_MS);
    });
    const answered = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
