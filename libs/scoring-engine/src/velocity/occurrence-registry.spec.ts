import { OCCURRENCE_RETENTION_DAYS, OccurrenceFlags, OccurrenceRegistry } from './occurrence-registry';

const DAY = 86_400_000;
const T = Date.UTC(2025, 10, 22, 12);
const { COUNTED, FAILED, SUMMED } = OccurrenceFlags;

describe(OccurrenceRegistry.name, () => {
  it('grants each part of an occurrence once, whatever the number of its updates', () => {
    const registry = new OccurrenceRegistry();
    expect(registry.claim('transaction:t1', T, COUNTED | SUMMED)).toBe(COUNTED | SUMMED);
    expect(registry.claim('transaction:t1', T + 1_000, COUNTED | SUMMED)).toBe(0);
    expect(registry.claim('transaction:t1', T + 2_000, COUNTED | FAILED | SUMMED)).toBe(FAILED);
    expect(registry.claim('transaction:t1', T + 3_000, COUNTED | FAILED)).toBe(0);
    expect(registry.claim('transaction:t2', T, COUNTED)).toBe(COUNTED);
    expect(registry.claim('refund:t1', T, COUNTED)).toBe(COUNTED);
    expect(registry.size).toBe(3);
  });

  it('recognises an update arriving days later, up to the retention, and forgets older days', () => {
    const registry = new OccurrenceRegistry();
    registry.claim('transaction:old', T, COUNTED);
    registry.claim('transaction:now', T + OCCURRENCE_RETENTION_DAYS * DAY, COUNTED);
    expect(registry.claim('transaction:old', T + OCCURRENCE_RETENTION_DAYS * DAY, COUNTED)).toBe(0);
    registry.claim('transaction:later', T + (OCCURRENCE_RETENTION_DAYS + 1) * DAY, COUNTED);
    expect(registry.claim('transaction:old', T + (OCCURRENCE_RETENTION_DAYS + 1) * DAY, COUNTED)).toBe(COUNTED);
  });

  it('grants, and does not remember, an update older than the retention behind the newest day', () => {
    const registry = new OccurrenceRegistry();
    registry.claim('transaction:now', T, COUNTED);
    expect(registry.claim('transaction:ancient', T - (OCCURRENCE_RETENTION_DAYS + 1) * DAY, COUNTED)).toBe(COUNTED);
    expect(registry.claim('transaction:ancient', T - (OCCURRENCE_RETENTION_DAYS + 1) * DAY, COUNTED)).toBe(COUNTED);
  });

  it('hands over what changed, with the day first seen, and the day before which the store may forget', () => {
    const registry = new OccurrenceRegistry();
    registry.claim('transaction:t1', T, COUNTED);
    registry.claim('transaction:t1', T + 2 * DAY, FAILED);
    const taken = registry.takeChanges();
    expect(taken.changed).toEqual([{ occurrence: 'transaction:t1', flags: COUNTED | FAILED, day: Math.floor(T / DAY) }]);
    expect(taken.forgottenBefore).toBe(Math.floor(T / DAY) + 2 - OCCURRENCE_RETENTION_DAYS);
    expect(registry.takeChanges()).toEqual({ changed: [], forgottenBefore: undefined });
  });

  it('gives back what a failed write took, unless changed again since', () => {
    const registry = new OccurrenceRegistry();
    registry.claim('transaction:t1', T, COUNTED);
    registry.claim('transaction:t2', T, COUNTED);
    const taken = registry.takeChanges();
    registry.claim('transaction:t2', T, FAILED);
    registry.returnChanges(taken);
    expect(registry.takeChanges().changed).toEqual([
      { occurrence: 'transaction:t2', flags: COUNTED | FAILED, day: Math.floor(T / DAY) },
      { occurrence: 'transaction:t1', flags: COUNTED, day: Math.floor(T / DAY) },
    ]);
  });

  it('restores stored occurrences: their counted parts are not granted again', () => {
    const stored = new OccurrenceRegistry();
    stored.claim('transaction:t1', T, COUNTED | SUMMED);
    const restored = new OccurrenceRegistry();
    for (const record of stored.takeChanges().changed) restored.restore(record);
    expect(restored.claim('transaction:t1', T + 60_000, COUNTED | FAILED | SUMMED)).toBe(FAILED);
    expect(() => restored.restore({ occurrence: 'x', flags: 9, day: 1 })).toThrow(RangeError);
  });
});
