import { SLOTS_PER_FEATURE, binDataset } from './binned-dataset';
import { accumulateHistogram, newHistogram, subtractHistogram } from './gradient-histogram';
import { computeBinBounds } from './quantile-bins';
import { seededRandom } from './seeded-random';
import { syntheticDataset } from './test-support/synthetic-dataset';

/** A histogram the plain way: every row, every feature, from the dense bins. */
function denseHistogram(dataset: ReturnType<typeof binDataset>, rows: Uint32Array, gradients: Float64Array, hessians: Float64Array): Float64Array {
  const histogram = newHistogram(dataset.featureCount);
  for (const row of rows) {
    for (let feature = 0; feature < dataset.featureCount; feature += 1) {
      const slot = (feature * SLOTS_PER_FEATURE + dataset.bins[feature * dataset.rowCount + row]) * 2;
      histogram[slot] += gradients[row];
      histogram[slot + 1] += hessians[row];
    }
  }
  return histogram;
}

describe(accumulateHistogram.name, () => {
  const { matrix } = syntheticDataset({ rows: 2_000, seed: 3 });
  const dataset = binDataset(matrix, computeBinBounds(matrix));
  const random = seededRandom(4);
  const gradients = Float64Array.from({ length: matrix.rowCount }, () => random() - 0.5);
  const hessians = Float64Array.from({ length: matrix.rowCount }, () => random() / 4);
  const allRows = Uint32Array.from({ length: matrix.rowCount }, (_, row) => row);

  it("skips each feature's most frequent bin and still gets every bin's sums right", () => {
    expect(dataset.rowSlots.length).toBeLessThan(matrix.rowCount * dataset.featureCount * 0.9);
    const histogram = newHistogram(dataset.featureCount);
    const totals = accumulateHistogram(dataset, allRows, 0, allRows.length, gradients, hessians, histogram);
    const expected = denseHistogram(dataset, allRows, gradients, hessians);
    histogram.forEach((sum, slot) => expect(sum).toBeCloseTo(expected[slot], 9));
    expect(totals.gradientSum).toBeCloseTo(gradients.reduce((sum, value) => sum + value, 0), 9);
  });

  it("gives a sibling's histogram as the parent's minus the other child's", () => {
    const left = allRows.filter((row) => row % 3 === 0);
    const right = allRows.filter((row) => row % 3 !== 0);
    const parent = newHistogram(dataset.featureCount);
    const child = newHistogram(dataset.featureCount);
    accumulateHistogram(dataset, allRows, 0, allRows.length, gradients, hessians, parent);
    accumulateHistogram(dataset, left, 0, left.length, gradients, hessians, child);
    subtractHistogram(parent, child);
    const expected = denseHistogram(dataset, right, gradients, hessians);
    parent.forEach((sum, slot) => expect(sum).toBeCloseTo(expected[slot], 9));
  });
});
