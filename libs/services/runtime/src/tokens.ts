/** Injection tokens shared by every service module. */
export const RINGFENCE_CONFIG = Symbol('RingfenceConfig');
export const ROOT_LOGGER = Symbol('RootLogger');
export const MESSAGE_BUS = Symbol('MessageBus');
/**
 * The list of `ReadinessCheck`s /health/ready asks. A service module adds its own (say, the
 * graph until its index is rebuilt) by injecting the list and pushing to it at init.
 */
export const READINESS_CHECKS = Symbol('ReadinessChecks');

export interface ReadinessCheck {
  /** Short name shown in the /health/ready answer, e.g. `database` or `bus`. */
  readonly name: string;
  isReady(): Promise<boolean>;
}
