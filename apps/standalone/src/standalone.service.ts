import { GatewayModule, serveOpenApi } from '@ringfence/service-gateway';
import { GraphModule } from '@ringfence/service-graph';
import { IngestionModule } from '@ringfence/service-ingestion';
import { CallbacksModule, LabellingModule } from '@ringfence/service-labelling';
import { LookupModule } from '@ringfence/service-lookup';
import type { ServiceDefinition } from '@ringfence/service-runtime';
import { ScoringModule } from '@ringfence/service-scoring';

/**
 * The embedded default: every service module in one process over the in-process bus, with the
 * embedded database under DATA_DIR (unless DATABASE_URL / KAFKA_BROKERS say otherwise).
 */
export const standaloneService: ServiceDefinition = {
  serviceName: 'standalone',
  modules: [GatewayModule, IngestionModule, ScoringModule, GraphModule, LookupModule, LabellingModule, CallbacksModule],
  https: true,
  sendsRequests: true,
  configure: serveOpenApi,
};
