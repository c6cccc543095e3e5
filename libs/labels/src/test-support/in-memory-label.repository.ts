import type { Environment, LabelSubjectKind } from '@ringfence/contracts';
import type { CurrentLabels, LabelApplication, LabelHistoryEntry, LabelRepository, LabelSubject, SubjectLabels } from '../label';
import { applyReview } from '../label-rules';

const keyOf = (accountId: string, environment: Environment, kind: LabelSubjectKind, subjectId: string) =>
  JSON.stringify([accountId, environment, kind, subjectId]);

/** Map-backed repository for domain and service tests; the real one is tested in libs/persistence. */
export class InMemoryLabelRepository implements LabelRepository {
  readonly subjects = new Map<string, SubjectLabels>();

  async apply(subject: LabelSubject, application: LabelApplication): Promise<LabelHistoryEntry> {
    const key = keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId);
    const stored = this.subjects.get(key) ?? { current: {}, history: [] };
    const { next, entry } = applyReview(stored.current[application.category] ?? null, application);
    const current = { ...stored.current };
    if (next) current[application.category] = next;
    else delete current[application.category];
    this.subjects.set(key, { current, history: [...stored.history, entry] });
    return entry;
  }

  async read(subject: LabelSubject): Promise<SubjectLabels> {
    const stored = this.subjects.get(keyOf(subject.accountId, subject.environment, subject.kind, subject.subjectId));
    return structuredClone(stored ?? { current: {}, history: [] });
  }

  async currentLabels(accountId: string, environment: Environment, subjectKind: LabelSubjectKind, subjectId: string): Promise<CurrentLabels> {
    return structuredClone(this.subjects.get(keyOf(accountId, environment, subjectKind, subjectId))?.current ?? {});
  }
}
