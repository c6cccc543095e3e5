import { scoreSum } from '../../apps/console/src/components/score-sum';

/** An explanation shown as a sum that adds up to the model's score (issue 37, docs/scoring.md). */
describe('scoreSum', () => {
  const item = (contribution: number) => ({ feature: `f${contribution}`, value: true, contribution });

  it('adds base, raised, lowered and others to the model score, in points', () => {
    expect(scoreSum({ baseScore: 20, raised: [item(25), item(10)], lowered: [item(-7.6), item(-4.8)], others: 1.4, modelScore: 44 })).toBe('20 base + 35 raised − 12.4 lowered + 1.4 others = 44');
  });

  it('writes a negative others with a minus and leaves out an others never recorded', () => {
    expect(scoreSum({ baseScore: 20, raised: [], lowered: [item(-8)], others: -2, modelScore: 10 })).toBe('20 base + 0 raised − 8 lowered − 2 others = 10');
    expect(scoreSum({ baseScore: 20, raised: [item(25)], lowered: [], modelScore: 45 })).toBe('20 base + 25 raised + 0 lowered = 45');
  });
});
