import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { GRAPH_STORE } from '@ringfence/graph-engine';
import { GraphStoreModule, Neo4jGraphStore, TypeOrmGraphStore, createNeo4jDriver } from '@ringfence/graph-store';
import type { RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import type { Driver } from 'neo4j-driver';
import { DataSource } from 'typeorm';
import { GraphDisputesResponder } from './graph-disputes.responder';
import { GraphQueryResponders } from './graph-query.responders';
import { GraphSearchResponder } from './graph-search.responder';
import { GraphUpdatesConsumer, GraphUpdatesController } from './graph-updates.consumer';
import { TenantGraphs } from './tenant-graphs.service';

/** The Neo4j driver when NEO4J_URL is set (distributed mode), else null. */
const NEO4J_DRIVER = Symbol('Neo4jDriver');

/**
 * The graph service: keeps the in-memory graph of every tenant (rebuilt from the store of
 * record at start, then updated from the ingest and label topics) and answers connect, voucher
 * uses and network features. The store of record is Neo4j when NEO4J_URL is set, else tables
 * in the relational database.
 */
@Module({
  imports: [GraphStoreModule],
  controllers: [GraphUpdatesController, GraphQueryResponders, GraphSearchResponder, GraphDisputesResponder],
  providers: [
    {
      provide: NEO4J_DRIVER,
      inject: [RINGFENCE_CONFIG],
      useFactory: (config: RingfenceConfig): Driver | null =>
        config.neo4j ? createNeo4jDriver({ url: config.neo4j.url, username: config.neo4j.user, password: config.neo4j.password }) : null,
    },
    {
      provide: GRAPH_STORE,
      inject: [NEO4J_DRIVER, DataSource],
      useFactory: async (driver: Driver | null, dataSource: DataSource) => {
        if (driver === null) return new TypeOrmGraphStore(dataSource);
        const store = new Neo4jGraphStore(driver);
        await store.ensureSchema();
        return store;
      },
    },
    TenantGraphs,
    GraphUpdatesConsumer,
  ],
})
export class GraphModule implements OnModuleDestroy {
  constructor(@Inject(NEO4J_DRIVER) private readonly driver: Driver | null) {}

  async onModuleDestroy(): Promise<void> {
    await this.driver?.close();
  }
}
