import { Injectable } from '@nestjs/common';

/**
 * State a sole writer loads from the tables beside the start (the embedded mode's entity
 * documents), which checkpoints decide from. The runtime's `/health/ready` answers "not ready"
 * until every load is done, as it does while the graph is rebuilt; a failed load counts as
 * done (the state is then read from the tables on demand: slower, still correct).
 */
@Injectable()
export class StartupLoads {
  private readonly pending = new Set<string>();

  /** Tracks `load` under `name` until it settles (a rejection counts as settled, and is not raised again). */
  track(name: string, load: Promise<unknown>): void {
    this.pending.add(name);
    const done = () => void this.pending.delete(name);
    void load.then(done, done);
  }

  /** True once every tracked load has settled. */
  isDone(): boolean {
    return this.pending.size === 0;
  }
}
