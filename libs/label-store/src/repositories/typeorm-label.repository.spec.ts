import { itBehavesLikeALabelRepository } from '../test-support/label-repository.behaviour';
import { buildLabelApplication, buildLabelSubject } from '../test-support/label-test-data.factory';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { CachingLabelRepository } from './caching-label.repository';
import { TypeOrmLabelRepository } from './typeorm-label.repository';
import { LABEL_STORE_SCHEMA } from '../label-store.schema';

describe(TypeOrmLabelRepository.name, () => {
  const database = useEmbeddedTestDatabase(LABEL_STORE_SCHEMA);

  itBehavesLikeALabelRepository(() => new TypeOrmLabelRepository(database.dataSource()));

  describe('as the only writer (no transaction, one subject at a time in memory)', () => {
    // One instance, as the process has: the order of a subject's reviews is kept in it.
    let soleWriter: TypeOrmLabelRepository | undefined;
    itBehavesLikeALabelRepository(() => (soleWriter ??= new TypeOrmLabelRepository(database.dataSource(), { soleWriter: true })));
  });

  describe('under the sole writer\'s cache (labels in memory for the checkpoints)', () => {
    let cached: CachingLabelRepository;
    beforeEach(async () => {
      cached = await CachingLabelRepository.load(new TypeOrmLabelRepository(database.dataSource(), { soleWriter: true }), 1_000);
    });
    itBehavesLikeALabelRepository(() => cached);
  });

  it('lists every subject with a current label, once, with its current labels', async () => {
    const repository = new TypeOrmLabelRepository(database.dataSource());
    const [reviewed, unreviewed] = [buildLabelSubject(), buildLabelSubject()];
    await repository.apply(reviewed, buildLabelApplication());
    await repository.apply(reviewed, buildLabelApplication({ category: 'REFUND_ABUSE', review: 'REFUND_ABUSE' } as never));

    const subjects = await repository.allCurrentLabels();
    const current = await repository.currentLabels(reviewed.accountId, reviewed.environment, reviewed.kind, reviewed.subjectId);
    expect(subjects.filter(({ subject }) => subject.subjectId === reviewed.subjectId)).toEqual([{ subject: reviewed, labels: current }]);
    expect(Object.keys(current).sort()).toEqual(['PAYMENT_FRAUD', 'REFUND_ABUSE']);
    expect(subjects.some(({ subject }) => subject.subjectId === unreviewed.subjectId)).toBe(false);
  });
});
