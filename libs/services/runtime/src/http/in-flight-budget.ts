/** Gives back an admitted request's place; calling it again does nothing. */
export type Release = () => void;

function once(release: () => void): Release {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}

/** At most `capacity` requests in progress at once; 0 for no cap. */
export class InFlightBudget {
  private inFlight = 0;

  constructor(readonly capacity: number) {}

  /** A place for one more request, or null when the budget is spent. */
  tryAdmit(): Release | null {
    if (this.capacity > 0 && this.inFlight >= this.capacity) return null;
    this.inFlight += 1;
    return once(() => (this.inFlight -= 1));
  }
}

/**
 * At most `capacityPerKey` requests in progress at once under each key (a client address). A key
 * is forgotten when its last request ends, so the map holds only clients with requests in
 * progress, which the budget they draw on already bounds.
 */
export class PerKeyInFlightBudget {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly capacityPerKey: number) {}

  tryAdmit(key: string): Release | null {
    const current = this.inFlight.get(key) ?? 0;
    if (current >= this.capacityPerKey) return null;
    this.inFlight.set(key, current + 1);
    return once(() => {
      const remaining = (this.inFlight.get(key) ?? 1) - 1;
      if (remaining === 0) this.inFlight.delete(key);
      else this.inFlight.set(key, remaining);
    });
  }
}
