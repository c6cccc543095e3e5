import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type Logger, type SetAsideEvent, SetAsideRows, describeError } from '@ringfence/platform';
import { rowsSetAside, setAsideFailures } from '../metrics/metrics';
import { ROOT_LOGGER } from '../tokens';

/**
 * Counts and logs every row a writer of this process sets aside (ADR-0016): the writer,
 * the account, the data set, the row's key and the store's error, never the row's contents
 * (an operator reads those with the admin token, `GET /admin/set-aside-rows`).
 */
@Injectable()
export class SetAsideReporter implements OnModuleInit {
  constructor(
    private readonly setAside: SetAsideRows,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.setAside.subscribe((event) => this.report(event));
  }

  private report(event: SetAsideEvent): void {
    switch (event.type) {
      case 'set-aside':
        for (const { writer, accountId, environment, key, error, attempts } of event.entries) {
          rowsSetAside.inc({ writer });
          this.logger.error({ writer, accountId, environment, key, attempts, error }, 'a row the store refused was set aside; the writer goes on with the others');
        }
        return;
      case 'set-aside-failed':
        setAsideFailures.inc({ writer: event.writer }, event.rows);
        this.logger.error({ writer: event.writer, rows: event.rows, error: describeError(event.error) }, 'could not set refused rows aside; they stay pending');
        return;
    }
  }
}
