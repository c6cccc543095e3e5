/**
 * One transaction at a time across the server's connections. Grafeo's transactions do not
 * survive interleaving with other connections' transactions and writes (a commit then fails
 * with "no active transaction"), where Neo4j would lock and wait; so this server makes every
 * explicit transaction and auto-commit statement wait its turn. Acquire order is first come,
 * first served.
 */
export class TransactionGate {
  private readonly waiting: Array<() => void> = [];
  private held = false;

  /** Resolves with the function that releases the gate (idempotent). */
  async acquire(): Promise<() => void> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    };
  }
}
