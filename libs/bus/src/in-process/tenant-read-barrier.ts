import type { MessageEnvelope } from '@ringfence/contracts';
import type { ReadDependency } from '../message-bus';
import type { ConsumerLane } from './consumer-lane';

/**
 * Read your writes in one process: the last sequence each tenant (account and data set)
 * published on each topic, and what a consistent responder waits for before its handler runs.
 * Tenants × topics entries.
 */
export class TenantReadBarrier {
  private readonly tenantWrites = new Map<string, Map<string, number>>();

  /** `laneOf`: the lane of a group on a topic, if that group consumes it in this process. */
  constructor(private readonly laneOf: (group: string, topic: string) => ConsumerLane | undefined) {}

  recordWrite(message: MessageEnvelope<unknown>, topic: string, sequence: number): void {
    const tenant = tenantOf(message);
    let writes = this.tenantWrites.get(tenant);
    if (writes === undefined) {
      writes = new Map();
      this.tenantWrites.set(tenant, writes);
    }
    writes.set(topic, Math.max(writes.get(topic) ?? 0, sequence));
  }

  /**
   * What a consistent responder waits for: each named group's lane of each named topic must
   * have read the log to its end since the start, and reach the tenant's last sequence there.
   * Undefined when nothing is pending.
   */
  caughtUp(dependencies: readonly ReadDependency[], message: MessageEnvelope<unknown>): Promise<void> | undefined {
    if (dependencies.length === 0) return undefined;
    const writes = this.tenantWrites.get(tenantOf(message));
    const waits: Array<Promise<void>> = [];
    for (const { group, topics } of dependencies) {
      for (const topic of topics) {
        const lane = this.laneOf(group, topic);
        if (lane === undefined) continue;
        // Writes answered before this process started are not in `tenantWrites`: they are
        // covered by the lane reading the log to its end first.
        const restart = lane.caughtUpSinceStart();
        if (restart !== undefined) waits.push(restart);
        const sequence = writes?.get(topic);
        const wait = sequence === undefined ? undefined : lane.handled(sequence);
        if (wait !== undefined) waits.push(wait);
      }
    }
    return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
  }
}

// JSON of the pair: no separator character can make two tenants collide.
const tenantOf = (message: Pick<MessageEnvelope<unknown>, 'accountId' | 'environment'>): string =>
  JSON.stringify([message.accountId, message.environment]);
