import 'reflect-metadata';
import { MODULE_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants';
import { ownedSchemaOf } from '@ringfence/persistence';
import { standaloneService } from './standalone.service';

/**
 * Each service owns its data (docs/architecture.md, "Each service owns its data"), by structure:
 * a service's tables, migrations and repositories are in its own store library (scope-tagged, so
 * lint refuses another scope's import), whose Nest module (`OwnsTables`) the service module
 * imports; an app migrates and provides only the stores of the modules it runs. This checks,
 * from the modules themselves, that no service module injects a store its own store modules do
 * not provide, and that no store has two owners. Another service's facts are asked of their
 * owner over the bus, never read from its tables.
 */
type ModuleClass = { new (...args: never[]): unknown; name: string };

/** The modules a module imports, and theirs. */
function importedModules(module: object, seen = new Set<object>()): object[] {
  for (const imported of (Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) ?? []) as object[]) {
    const target = typeof imported === 'function' ? imported : (imported as { module?: object }).module;
    if (target !== undefined && !seen.has(target)) {
      seen.add(target);
      importedModules(target, seen);
    }
  }
  return [...seen];
}

/** The store modules among a module's imports: those that own tables. */
function storeModulesOf(module: object): object[] {
  return importedModules(module).filter((imported) => ownedSchemaOf(imported) !== undefined);
}

function providedTokens(module: object): unknown[] {
  const providers = (Reflect.getMetadata(MODULE_METADATA.PROVIDERS, module) ?? []) as ProviderLike[];
  return providers.map((provider) => (typeof provider === 'function' ? provider : provider.provide));
}

const SERVICE_MODULES = standaloneService.modules as ModuleClass[];
const STORE_MODULES = [...new Set(SERVICE_MODULES.flatMap(storeModulesOf))];
/** Every store, by the token its owner's store module provides it under. */
const STORES: readonly unknown[] = STORE_MODULES.flatMap(providedTokens);

type ProviderLike = { new (...args: never[]): unknown } | { inject?: unknown[]; provide?: unknown };

/** The injection tokens of a class's constructor: `@Inject(token)` ones and plain class types. */
function constructorTokens(type: { new (...args: never[]): unknown }): unknown[] {
  const declared = (Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, type) ?? []) as { index: number; param: unknown }[];
  const designed = (Reflect.getMetadata('design:paramtypes', type) ?? []) as unknown[];
  return designed.map((designType, index) => declared.find((dependency) => dependency.index === index)?.param ?? designType);
}

/** The stores a module's controllers and providers (and factories) inject. */
function storesInjectedBy(module: object): Set<unknown> {
  const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as { new (...args: never[]): unknown }[];
  const providers = (Reflect.getMetadata(MODULE_METADATA.PROVIDERS, module) ?? []) as ProviderLike[];
  const tokens = [
    ...constructorTokens(module as { new (...args: never[]): unknown }),
    ...controllers.flatMap(constructorTokens),
    ...providers.flatMap((provider) => (typeof provider === 'function' ? constructorTokens(provider) : (provider.inject ?? []))),
  ];
  return new Set(tokens.filter((token) => STORES.includes(token)));
}

describe('data ownership', () => {
  it('finds the store modules of every service', () => {
    expect(STORE_MODULES.map((module) => (module as ModuleClass).name).sort()).toEqual(['AccountStoreModule', 'EntityStoreModule', 'GraphStoreModule', 'LabelStoreModule', 'LookupStoreModule', 'ScoringStoreModule']);
  });

  it.each(SERVICE_MODULES.map((module) => [module.name, module] as const))('%s injects only the stores its own store modules provide', (_name, module) => {
    const own = new Set(storeModulesOf(module).flatMap(providedTokens));
    expect([...storesInjectedBy(module)].filter((store) => !own.has(store)).map(String)).toEqual([]);
  });

  it('gives every store one owner', () => {
    const owners = STORES.map((store) => STORE_MODULES.filter((module) => providedTokens(module).includes(store)).length);
    expect(owners).toEqual(STORES.map(() => 1));
  });

  it('gives every owner its own tables', () => {
    const owners = STORE_MODULES.map((module) => ownedSchemaOf(module)?.owner);
    expect(new Set(owners).size).toBe(owners.length);
  });
});
