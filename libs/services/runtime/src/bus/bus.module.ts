import { type DynamicModule, Global, Module } from '@nestjs/common';
import { EVENT_LOG_STORE, type EventLogStore, InProcessMessageBus, KafkaMessageBus, type MessageBus, kafkaClientSecurity } from '@ringfence/bus';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER } from '../tokens';

/**
 * The message bus of the app: Kafka when KAFKA_BROKERS is set, else the in-process bus over
 * the embedded event log. Services only ever see the `MessageBus` port, and declare their
 * handlers with `@MessagePattern`/`@EventPattern`. The bus transporter (`connectBusTransport`)
 * starts the bus after the app's init and stops it when the app closes.
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
                  // TLS and SASL (ADR-0016); a missing or malformed file stops the start here.
                  ...kafkaClientSecurity(config.kafkaSecurity),
                  consumeReplies: options.sendsRequests,
                  consumer: { maxWaitTimeInMs: config.kafkaConsumerMaxWaitMs },
                  // The pod name in Kubernetes: replies are routed to it.
                  instanceId: process.env.HOSTNAME ? `${process.env.HOSTNAME}-${process.pid}` : undefined,
                  logger,
                })
              : new InProcessMessageBus({ eventLog, logger }),
        },
      ],
      exports: [MESSAGE_BUS],
    };
  }
}
