import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ROUTE_ACCESS, ROUTE_ROLE } from '@ringfence/service-runtime';
import { LookupCredentialsStoreModule } from '@ringfence/service-lookup';
import { OpsController } from '../../libs/services/runtime/src/ops/ops.controller';
import { standaloneService } from '../../apps/standalone/src/standalone.service';

type Controller = new (...args: never[]) => object;

/** A module's controllers and those of the modules it imports (the gateway's ClientSdkModule, say), once each. */
function controllersOf(module: unknown, seen = new Set<unknown>()): Controller[] {
  const dynamic = module as { module?: object; controllers?: Controller[]; imports?: unknown[] } | undefined;
  const type = dynamic?.module ?? module;
  if (typeof type !== 'function' || seen.has(type)) return [];
  seen.add(type);
  const imports = [...((Reflect.getMetadata('imports', type) as unknown[] | undefined) ?? []), ...(dynamic?.imports ?? [])];
  const own = [...((Reflect.getMetadata('controllers', type) as Controller[] | undefined) ?? []), ...(dynamic?.controllers ?? [])];
  return [...new Set([...own, ...imports.flatMap((imported) => controllersOf(imported, seen))])];
}

/** Architecture rule as a test: every HTTP route is guarded or explicitly public. */
describe('route access declarations', () => {
  // The standalone app's routes, and the lookup app's internal ones (never mounted in the standalone app).
  const internalControllers = controllersOf(LookupCredentialsStoreModule);
  const controllers = [OpsController, ...standaloneService.modules.flatMap((module) => controllersOf(module)), ...internalControllers];
  const routes = controllers.flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype)
      .map((name) => ({ controller, name, handler: (controller.prototype as Record<string, unknown>)[name] }))
      .filter(({ handler }) => typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler as object) !== undefined),
  );

  it('finds the routes it checks', () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
    expect(routes.map((route) => Reflect.getMetadata(PATH_METADATA, route.handler as object))).toContain('customer');
  });

  it.each(routes.map((route) => [`${route.controller.name}.${route.name}`, route] as const))('%s declares its access', (_name, route) => {
    const access = Reflect.getMetadata(ROUTE_ACCESS, route.handler as object) ?? Reflect.getMetadata(ROUTE_ACCESS, route.controller);
    expect(['public', 'admin', 'secret-key', 'publishable-key', 'internal']).toContain(access);
  });

  it('takes a publishable key on the client SDK routes only (ADR-0015)', () => {
    const accessOf = (route: (typeof routes)[number]) => Reflect.getMetadata(ROUTE_ACCESS, route.handler as object) ?? Reflect.getMetadata(ROUTE_ACCESS, route.controller);
    const publishable = routes.filter((route) => accessOf(route) === 'publishable-key').map((route) => `${route.controller.name}.${route.name}`);

    expect(publishable).toEqual(['ClientController.events', 'ClientController.encryptionKey']);
  });

  it("declares the lookup service's internal routes for the internal credential, and only those (ADR-0016)", () => {
    const accessOf = (route: (typeof routes)[number]) => Reflect.getMetadata(ROUTE_ACCESS, route.handler as object) ?? Reflect.getMetadata(ROUTE_ACCESS, route.controller);
    const internal = routes.filter((route) => accessOf(route) === 'internal').map((route) => `${route.controller.name}.${route.name}`);

    expect(internal.length).toBeGreaterThan(0);
    expect(internal).toEqual(routes.filter((route) => internalControllers.includes(route.controller)).map((route) => `${route.controller.name}.${route.name}`));
  });

  it("refuses console sessions on every route of the integrations' controllers: checkpoint events, PSP feeds, legacy events and backfills (issue 37)", () => {
    const integrations = ['CustomerController', 'SupplierController', 'PayoutController', 'RefundController', 'RegistrationController', 'VoucherController', 'ConnectController', 'PspTransactionController', 'PspDisputeController', 'LegacyV2Controller'];
    const theirs = routes.filter((route) => integrations.includes(route.controller.name));
    const roleOf = (route: (typeof routes)[number]) => Reflect.getMetadata(ROUTE_ROLE, route.handler as object) ?? Reflect.getMetadata(ROUTE_ROLE, route.controller);

    expect(new Set(theirs.map((route) => route.controller.name)).size).toBe(integrations.length);
    expect(theirs.filter((route) => roleOf(route) !== 'integration').map((route) => `${route.controller.name}.${route.name}`)).toEqual([]);
  });
});
