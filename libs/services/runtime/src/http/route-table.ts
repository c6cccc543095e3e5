/**
 * The paths the app serves and their methods, collected from Fastify's `onRoute` hook, so an
 * unknown method on a known path answers 405 with `Allow` instead of 404.
 */
export class RouteTable {
  private readonly routes: Array<{ pattern: RegExp; method: string }> = [];

  add(url: string, method: string | string[]): void {
    const source = url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    for (const one of Array.isArray(method) ? method : [method]) this.routes.push({ pattern, method: one.toUpperCase() });
  }

  /** The methods served at `path` (query string ignored); empty for an unknown path. */
  methodsFor(url: string): string[] {
    const path = url.split('?')[0];
    const methods = new Set(this.routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
    methods.delete('HEAD');
    return [...methods].sort();
  }
}
