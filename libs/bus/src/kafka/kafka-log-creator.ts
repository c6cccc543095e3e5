import { type logCreator, logLevel } from 'kafkajs';
import type { BusLogger } from '../bus-logger';

/**
 * Sends kafkajs's own log lines to the bus logger, so they share the app's JSON format and
 * redaction. kafkajs's info lines (joins, restarts) are client chatter and go out as debug.
 */
export function kafkaLogCreator(logger: BusLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, logger: _logger, ...fields } = log;
      const entry = { component: 'kafkajs', namespace, ...fields };
      switch (level) {
        case logLevel.ERROR:
          logger.error(entry, message);
          break;
        case logLevel.WARN:
          logger.warn(entry, message);
          break;
        case logLevel.INFO:
        case logLevel.DEBUG:
        case logLevel.NOTHING:
          logger.debug(entry, message);
          break;
      }
    };
}
