/** PostgreSQL's integer: a ruleId past it (none is, MAX_RULE_ID is smaller) is not kept. */
const MAX_INTEGER = 2_147_483_647;

/** The ids of the rules a decision event recorded as true, each once; what `hit_rule_ids` holds. */
export function hitRuleIdsOf(event: Record<string, unknown>): number[] {
  const triggered = (event.rules as { triggered?: unknown } | undefined)?.triggered;
  if (!Array.isArray(triggered)) return [];
  const ids = triggered.map((rule) => (rule as { ruleId?: unknown } | null)?.ruleId).filter((id): id is number => Number.isInteger(id) && (id as number) > 0 && (id as number) <= MAX_INTEGER);
  return [...new Set(ids)];
}
