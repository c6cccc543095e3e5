/**
 * Checks a fraud mix option: an object of finite weights from 0 up, one per known `noun` (a
 * marketplace's fraud kind, a card-payments fraud pattern), at least one of them positive.
 * `check` throws the option's RangeError when a condition fails.
 */
export function checkFraudMix(mix: unknown, known: readonly string[], noun: 'kind' | 'pattern', check: (ok: boolean, message: string) => void): void {
  check(typeof mix === 'object' && mix !== null && !Array.isArray(mix), `fraud mix must be an object of weights by fraud ${noun}`);
  const entries = Object.entries(mix as Record<string, unknown>);
  const unknown = entries.map(([name]) => name).filter((name) => !known.includes(name));
  check(unknown.length === 0, `fraud mix names unknown ${noun}s (${unknown.join(', ')}); the ${noun}s are ${known.join(', ')}`);
  for (const [name, weight] of entries) {
    check(typeof weight === 'number' && Number.isFinite(weight) && weight >= 0, `fraud mix weight of ${name} must be a finite number from 0 up (got ${String(weight)})`);
  }
  check(
    entries.some(([, weight]) => (weight as number) > 0),
    `fraud mix must give at least one ${noun} a positive weight`,
  );
}
