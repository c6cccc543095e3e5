/** The signals that ask an app to stop. Not SIGUSR2: Node's `--heapsnapshot-signal` and other diagnostic tools use it. */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export interface StoppableApp {
  /** Stops HTTP, then the bus (in-flight handlers finish and commit), then the modules. */
  close(): Promise<void>;
}

/** Where the two lines go: the app's root logger. */
export interface StopLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface GracefulStopOptions {
  serviceName: string;
  logger: StopLogger;
  /** Ends the process; `process.exit` in an app, a recorder in tests. */
  exit?: (code: number) => void;
  /** Where the signals come from; `process` in an app. */
  signals?: Pick<NodeJS.Process, 'on' | 'off'>;
}

/**
 * Stops the app on SIGTERM, SIGINT or SIGHUP, logs a line when it begins and one when it is
 * done, and exits 0 after a clean stop (1 when closing failed): a supervisor (systemd, Kubernetes,
 * a script) sees a clean stop as one, not as death by signal (143). A second signal while the app
 * stops ends the process at once, with status 1. Returns a function that removes the handlers.
 */
export function stopOnSignals(app: StoppableApp, options: GracefulStopOptions): () => void {
  const { serviceName, logger } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? process;
  let stopping = false;
  const onSignal = (signal: StopSignal): void => {
    if (stopping) {
      logger.info({ signal }, `${serviceName} stopping at once: a second signal came while stopping`);
      exit(1);
      return;
    }
    stopping = true;
    const started = Date.now();
    logger.info({ signal }, `${serviceName} stopping`);
    app.close().then(
      () => {
        logger.info({ signal, durationMs: Date.now() - started }, `${serviceName} stopped`);
        exit(0);
      },
      (error: unknown) => {
        logger.error({ signal, err: error }, `${serviceName} did not stop cleanly`);
        exit(1);
      },
    );
  };
  const handlers = STOP_SIGNALS.map((signal) => [signal, () => onSignal(signal)] as const);
  for (const [signal, handler] of handlers) signals.on(signal, handler);
  return () => {
    for (const [signal, handler] of handlers) signals.off(signal, handler);
  };
}
