import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Lookup = MetadataStorage['getTargetValidationMetadatas'];

let installed = false;

/**
 * class-validator recomputes a class's rules on every object it validates: it filters the class's
 * own rules and then walks every registered class to find ancestors (`instanceof`), which made
 * that lookup the largest single cost of validating a request (a full refund body holds about
 * forty nested objects; ~18 % of the CPU in a profile). The rules of a class never change once
 * its module is loaded, so the answer is memoised per class and options. The memo is dropped
 * whenever a rule is registered (a class loaded later), so it can never serve stale rules.
 */
export function cacheValidationMetadata(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let memo = new Map<string, Map<unknown, ReturnType<Lookup>>>();
  storage.addValidationMetadata = (metadata) => {
    memo = new Map();
    register(metadata);
  };
  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    const options = `${targetSchema}|${always}|${strictGroups}|${groups?.join(',') ?? ''}`;
    let byTarget = memo.get(options);
    if (!byTarget) memo.set(options, (byTarget = new Map()));
    let rules = byTarget.get(targetConstructor);
    if (!rules) byTarget.set(targetConstructor, (rules = lookup(targetConstructor, targetSchema, always, strictGroups, groups)));
    return rules;
  };
}
