import { Module } from '@nestjs/common';

/**
 * The graph service's module. In this release it carries only the shared runtime (health,
 * metrics, bus connection); the in-memory graph index, connect and voucher check arrive with
 * the graph work (see README).
 */
@Module({})
export class GraphModule {}
