/** One structured log call: fields first, then the message (pino's argument order). */
export type BusLogFunction = (fields: Record<string, unknown>, message: string) => void;

/**
 * What the bus adapters log through. A pino logger fits as it is, so apps pass theirs (or a
 * child) and bus lines come out in the same JSON with the same redaction.
 */
export interface BusLogger {
  error: BusLogFunction;
  warn: BusLogFunction;
  info: BusLogFunction;
  debug: BusLogFunction;
}

const ignore: BusLogFunction = () => undefined;

/** The default when no logger is given: tests and tools that do not care about bus logs. */
export const SILENT_BUS_LOGGER: BusLogger = { error: ignore, warn: ignore, info: ignore, debug: ignore };
