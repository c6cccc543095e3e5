import 'reflect-metadata';
import { MODULE_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants';
import { ACCOUNT_REPOSITORY, API_KEY_REPOSITORY } from '@ringfence/accounts';
import { EVENT_LOG_STORE } from '@ringfence/bus';
import { CALLBACK_DELIVERY_REPOSITORY } from '@ringfence/callbacks';
import { BREACHED_CREDENTIALS_REPOSITORY } from '@ringfence/credentials';
import { ENTITY_DOCUMENT_REPOSITORY } from '@ringfence/entities';
import { GRAPH_STORE } from '@ringfence/graph-engine';
import { LABEL_REPOSITORY } from '@ringfence/labels';
import { LOOKUP_INDICATOR_REPOSITORY } from '@ringfence/lookup';
import { VELOCITY_SNAPSHOT_STORE } from '@ringfence/persistence';
import { DECISION_RECORD_REPOSITORY, RULE_REPOSITORY } from '@ringfence/scoring-engine';
import { GatewayModule } from '@ringfence/service-gateway';
import { GraphModule } from '@ringfence/service-graph';
import { IngestionModule } from '@ringfence/service-ingestion';
import { CallbacksModule, LabellingModule } from '@ringfence/service-labelling';
import { LookupModule } from '@ringfence/service-lookup';
import { ScoringModule, VelocityModule } from '@ringfence/service-scoring';
import { DataSource } from 'typeorm';

/**
 * Each service owns its data (docs/architecture.md, "Each service owns its data"): the stores
 * each service module may inject. Another service's facts are asked of their owner over the bus
 * (scoring asks ingestion, labelling, lookup and the graph), never read from its tables.
 *
 * The account registry is the gateway's alone: every request it sends carries the account's
 * facts (`AccountFacts`: its industry and settings, without the callback secret), and the
 * services ask it for the rest (`ringfence.rpc.gateway.*`: the facts of an event's account, a
 * review callback's URL and signature).
 */
const OWNED_STORES = new Map<object, readonly unknown[]>([
  [GatewayModule, [ACCOUNT_REPOSITORY, API_KEY_REPOSITORY, EVENT_LOG_STORE, BREACHED_CREDENTIALS_REPOSITORY]],
  [IngestionModule, [ENTITY_DOCUMENT_REPOSITORY]],
  // Scoring's own tables (rule_versions, decision_records), through @ringfence/scoring-store on the connection.
  [ScoringModule, [RULE_REPOSITORY, DECISION_RECORD_REPOSITORY, DataSource]],
  // Scoring's velocity counters, written behind its own consumer (imported by ScoringModule).
  [VelocityModule, [VELOCITY_SNAPSHOT_STORE]],
  [GraphModule, [GRAPH_STORE, DataSource]],
  [LabellingModule, [LABEL_REPOSITORY]],
  // Review callbacks are the labelling service's deliveries; their URL and signatures are asked of the gateway.
  [CallbacksModule, [CALLBACK_DELIVERY_REPOSITORY]],
  [LookupModule, [LOOKUP_INDICATOR_REPOSITORY]],
]);

/** Every store, by the token the persistence module provides it under. */
const STORES: readonly unknown[] = [
  ACCOUNT_REPOSITORY,
  API_KEY_REPOSITORY,
  EVENT_LOG_STORE,
  BREACHED_CREDENTIALS_REPOSITORY,
  ENTITY_DOCUMENT_REPOSITORY,
  GRAPH_STORE,
  LABEL_REPOSITORY,
  LOOKUP_INDICATOR_REPOSITORY,
  CALLBACK_DELIVERY_REPOSITORY,
  VELOCITY_SNAPSHOT_STORE,
  RULE_REPOSITORY,
  DECISION_RECORD_REPOSITORY,
  DataSource,
];

type ProviderLike = { new (...args: never[]): unknown } | { inject?: unknown[]; provide?: unknown };

/** The injection tokens of a class's constructor: `@Inject(token)` ones and plain class types. */
function constructorTokens(type: { new (...args: never[]): unknown }): unknown[] {
  const declared = (Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, type) ?? []) as { index: number; param: unknown }[];
  const designed = (Reflect.getMetadata('design:paramtypes', type) ?? []) as unknown[];
  return designed.map((designType, index) => declared.find((dependency) => dependency.index === index)?.param ?? designType);
}

/** The stores a module's controllers and providers (and factories) inject. */
function storesInjectedBy(module: object): Set<unknown> {
  const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as { new (...args: never[]): unknown }[];
  const providers = (Reflect.getMetadata(MODULE_METADATA.PROVIDERS, module) ?? []) as ProviderLike[];
  const tokens = [
    ...constructorTokens(module as { new (...args: never[]): unknown }),
    ...controllers.flatMap(constructorTokens),
    ...providers.flatMap((provider) => (typeof provider === 'function' ? constructorTokens(provider) : (provider.inject ?? []))),
  ];
  return new Set(tokens.filter((token) => STORES.includes(token)));
}

describe('data ownership', () => {
  it.each([...OWNED_STORES].map(([module, owned]) => [(module as { name: string }).name, module, owned] as const))(
    '%s injects only the stores it owns',
    (_name, module, owned) => {
      expect([...storesInjectedBy(module)].sort(byName)).toEqual([...owned].sort(byName));
    },
  );

  // The connection itself is shared by the services that keep tables of their own through their
  // own adapter library (the graph's graph-store, scoring's scoring-store): the tables are theirs.
  const SHARED = new Set<unknown>([DataSource]);

  it('gives every store but the connection to one service only', () => {
    const owners = STORES.filter((store) => !SHARED.has(store)).map((store) => [...OWNED_STORES.values()].filter((owned) => owned.includes(store)).length);
    expect(owners).toEqual(STORES.filter((store) => !SHARED.has(store)).map(() => 1));
  });
});

function byName(left: unknown, right: unknown): number {
  return String(left).localeCompare(String(right));
}
