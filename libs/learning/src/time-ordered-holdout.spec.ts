import { timeOrderedHoldout, timeOrderedSplit } from './time-ordered-holdout';

describe(timeOrderedSplit.name, () => {
  it('holds out the latest 20 % in event time, whatever the order given', () => {
    const times = [5, 1, 9, 3, 7, 2, 10, 4, 8, 6];
    const { trainingRows, holdoutRows } = timeOrderedSplit(times);
    expect(Array.from(holdoutRows, (row) => times[row])).toEqual([9, 10]);
    expect(Array.from(trainingRows, (row) => times[row])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('holds out every example at the boundary instant, so none held out is older than one trained on', () => {
    const { trainingRows, holdoutRows } = timeOrderedSplit([1, 2, 3, 4, 4]);
    expect(Array.from(holdoutRows)).toEqual([3, 4]);
    expect(Array.from(trainingRows)).toEqual([0, 1, 2]);
  });

  it('refuses an example without a time and a fraction outside (0, 1)', () => {
    expect(() => timeOrderedSplit([1, Number.NaN])).toThrow('example 1 has no event time');
    expect(() => timeOrderedSplit([1, 2], 1)).toThrow('holdoutFraction');
  });
});

describe(timeOrderedHoldout.name, () => {
  it('splits examples by their event time', () => {
    const examples = [10, 40, 30, 20, 50].map((at) => ({ id: `e${at}`, at }));
    const { training, holdout } = timeOrderedHoldout(examples, (example) => example.at);
    expect(holdout.map((example) => example.id)).toEqual(['e50']);
    expect(training.map((example) => example.id)).toEqual(['e10', 'e20', 'e30', 'e40']);
  });
});
