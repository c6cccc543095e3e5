import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { RingfenceConfig } from '@ringfence/platform';
import { type IsAuthenticated, registerLoadShedding } from '../load-shedding';
import { RequestCredentials } from '../request-credentials';

/** Tells the in-flight budgets which requests are authenticated, once the app's module exists. */
export type AuthenticateWith = (app: NestFastifyApplication) => void;

/**
 * The in-flight budgets of authenticated and unauthenticated requests (ADR-0016). They tell
 * the two apart with the access guard's own credential reader, which the app's module provides:
 * it is created after the hooks, before any request, and handed over by the function returned.
 */
export function registerInFlightBudgets(fastify: FastifyInstance, config: RingfenceConfig): AuthenticateWith {
  let isAuthenticated: IsAuthenticated = async () => false;
  registerLoadShedding(
    fastify,
    {
      maxInFlight: config.maxInFlightRequests,
      maxUnauthenticatedInFlight: config.maxUnauthenticatedInFlightRequests,
      maxUnauthenticatedInFlightPerAddress: config.maxUnauthenticatedInFlightPerAddress,
      maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    },
    (request) => isAuthenticated(request),
  );
  return (app) => {
    const credentials = providedCredentials(app);
    // Without the runtime module (a test of one controller) no route takes a credential.
    if (credentials) isAuthenticated = (request) => credentials.isAuthenticated(request);
  };
}

function providedCredentials(app: NestFastifyApplication): RequestCredentials | undefined {
  try {
    return app.get(RequestCredentials, { strict: false });
  } catch {
    return undefined;
  }
}
