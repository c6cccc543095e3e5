import { type EntityIngestTopic, PAYLOAD_ROUTE_LIST } from '@ringfence/contracts';
import { ENTITY_UPDATES_BY_TOPIC, type EntityUpdate, type WireJson } from '@ringfence/entities';
import type { InputClass } from '@ringfence/service-runtime';

/** How one ingest topic becomes entity updates. */
export interface IngestRoute {
  topic: EntityIngestTopic;
  payloadClass: InputClass<object>;
  /**
   * The entities the payload (as wire JSON) describes: a pure function of it, reading no store (a
   * dispute records itself on its transaction, which reaches the customer: `storeEntityUpdates`).
   */
  updates(wire: WireJson): EntityUpdate[];
}

/** Every ingest topic of the contracts' payload table, and the entities each one keeps (ADR-0005). */
export const INGEST_ROUTES: readonly IngestRoute[] = PAYLOAD_ROUTE_LIST.map((route) => ({
  topic: route.ingestTopic,
  payloadClass: route.payloadClass,
  updates: ENTITY_UPDATES_BY_TOPIC[route.ingestTopic],
}));
