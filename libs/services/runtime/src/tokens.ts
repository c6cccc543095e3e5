/** Injection tokens shared by every service module. */
export const RINGFENCE_CONFIG = Symbol('RingfenceConfig');
export const ROOT_LOGGER = Symbol('RootLogger');
export const MESSAGE_BUS = Symbol('MessageBus');
/** Multi-provider: every `ReadinessCheck` registered under it is asked by /health/ready. */
export const READINESS_CHECKS = Symbol('ReadinessChecks');

export interface ReadinessCheck {
  /** Short name shown in the /health/ready answer, e.g. `database` or `bus`. */
  readonly name: string;
  isReady(): Promise<boolean>;
}
