import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_LOG_STORE, type EventLogStore, InProcessMessageBus, KafkaMessageBus, type MessageBus } from '@ringfence/bus';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER } from '../tokens';

/**
 * Starts the bus once every module has registered its consumers (they subscribe in
 * onModuleInit, which Nest runs before onApplicationBootstrap), and stops it on shutdown.
 */
@Injectable()
class BusLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(MESSAGE_BUS) private readonly bus: MessageBus) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.stop();
  }
}

/**
 * The message bus of the app: Kafka when KAFKA_BROKERS is set, else the in-process bus over
 * the embedded event log. Services only ever see the `MessageBus` port.
 */
@Global()
@Module({})
export class BusModule {
  static forRoot(options: { serviceName: string; sendsRequests: boolean }): DynamicModule {
    return {
      module: BusModule,
      providers: [
        {
          provide: MESSAGE_BUS,
          inject: [RINGFENCE_CONFIG, ROOT_LOGGER, EVENT_LOG_STORE],
          useFactory: (config: RingfenceConfig, logger: Logger, eventLog: EventLogStore): MessageBus =>
            config.kafkaBrokers
              ? new KafkaMessageBus({
                  brokers: config.kafkaBrokers,
                  clientId: `ringfence-${options.serviceName}`,
                  consumeReplies: options.sendsRequests,
                  consumer: { maxWaitTimeInMs: config.kafkaConsumerMaxWaitMs },
                  // The pod name in Kubernetes: replies are routed to it.
                  instanceId: process.env.HOSTNAME ? `${process.env.HOSTNAME}-${process.pid}` : undefined,
                  logger,
                })
              : new InProcessMessageBus({ eventLog, logger }),
        },
        BusLifecycle,
      ],
      exports: [MESSAGE_BUS],
    };
  }
}
