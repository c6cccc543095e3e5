import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { MessageBus } from '@ringfence/bus';
import { DatabaseHealth, StartupLoads } from '@ringfence/persistence';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { AccessGuard } from './http/access.guard';
import { OperatorCredentialAttempts } from './http/operator-credential-attempts';
import { RequestCredentials } from './http/request-credentials';
import { OpsController } from './ops/ops.controller';
import { SetAsideController } from './set-aside/set-aside.controller';
import { PublishBehind } from './set-aside/publish-behind';
import { SetAsideReporter } from './set-aside/set-aside-reporter';
import { MESSAGE_BUS, READINESS_CHECKS, RINGFENCE_CONFIG, ROOT_LOGGER, type ReadinessCheck } from './tokens';

/**
 * What every app has: its validated config, the JSON logger, the access guard on every route
 * (with the request credentials it shares with the load shedder, and the throttle of failed
 * admin-token and internal-credential attempts),
 * the ops endpoints (/health/live, /health/ready, /metrics), and the operator's read and replay
 * of the rows its writers set aside (/admin/set-aside-rows, ADR-0016).
 */
@Global()
@Module({})
export class RuntimeModule {
  static forRoot(options: { config: RingfenceConfig; logger: Logger }): DynamicModule {
    return {
      module: RuntimeModule,
      controllers: [OpsController, SetAsideController],
      providers: [
        SetAsideReporter,
        PublishBehind,
        { provide: RINGFENCE_CONFIG, useValue: options.config },
        { provide: ROOT_LOGGER, useValue: options.logger },
        RequestCredentials,
        OperatorCredentialAttempts,
        { provide: APP_GUARD, useClass: AccessGuard },
        {
          provide: READINESS_CHECKS,
          inject: [DatabaseHealth, StartupLoads, MESSAGE_BUS],
          useFactory: (database: DatabaseHealth, startupLoads: StartupLoads, bus: MessageBus): ReadinessCheck[] => [
            { name: 'database', isReady: () => database.isReady() },
            { name: 'stored state', isReady: async () => startupLoads.isDone() },
            { name: 'bus', isReady: () => bus.isReady() },
          ],
        },
      ],
      exports: [RINGFENCE_CONFIG, ROOT_LOGGER, READINESS_CHECKS, RequestCredentials, PublishBehind],
    };
  }
}
