import type { FastifyRequest } from 'fastify';

/**
 * What a log line says a request was for: its route's pattern (`/v2/decisions/:scoreId`), or
 * for a request no route matched its path, and never the query string. Query parameters carry
 * personal data (GET /v2/lookup?email=…&telephone=…), and logs are kept, shipped and read by
 * more people than the database (ADR-0016, "Inside the cluster").
 */
export function loggedPath(request: Pick<FastifyRequest, 'url' | 'routeOptions'>): string {
  return request.routeOptions.url ?? withoutQuery(request.url);
}

function withoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
