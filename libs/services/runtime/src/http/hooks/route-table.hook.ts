import type { FastifyInstance } from 'fastify';
import { RouteTable } from '../route-table';

/** The table of every route as it is registered: the error filter tells a 405 from a 404 by it. */
export function registerRouteTable(fastify: FastifyInstance): RouteTable {
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  return routes;
}
