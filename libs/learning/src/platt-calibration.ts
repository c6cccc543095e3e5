/**
 * Platt scaling: p = σ(slope × margin + intercept), two parameters fitted to held-out labels by
 * Newton's method, with Platt's smoothed targets ((N₊ + 1)/(N₊ + 2) for positives, 1/(N₋ + 2)
 * for negatives) so a perfectly separated held-out set does not send the slope to infinity
 * (Platt 1999; Lin, Lin & Weng 2007). Smooth and data-frugal, but it can only stretch and shift
 * the margin's sigmoid; isotonic calibration fits any monotone shape.
 */
export interface PlattCalibration {
  kind: 'platt';
  slope: number;
  intercept: number;
}

export function fitPlattCalibration(margins: ArrayLike<number>, labels: ArrayLike<number>): PlattCalibration {
  const count = margins.length;
  if (count === 0 || count !== labels.length) throw new RangeError(`${labels.length} labels for ${count} margins`);
  let positives = 0;
  for (let index = 0; index < count; index += 1) positives += labels[index];
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (count - positives + 2);
  const target = (index: number) => (labels[index] === 1 ? high : low);
  const loss = (slope: number, intercept: number) => {
    let total = 0;
    for (let index = 0; index < count; index += 1) {
      const z = slope * margins[index] + intercept;
      // Cross-entropy against the smoothed target: t·softplus(−z) + (1 − t)·softplus(z).
      const softplus = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
      total += softplus - target(index) * z;
    }
    return total;
  };
  let slope = 1;
  let intercept = 0;
  let current = loss(slope, intercept);
  for (let iteration = 0; iteration < 100; iteration += 1) {
    let gradientSlope = 0;
    let gradientIntercept = 0;
    let hessianSlope = 1e-12;
    let hessianCross = 0;
    let hessianIntercept = 1e-12;
    for (let index = 0; index < count; index += 1) {
      const margin = margins[index];
      const probability = 1 / (1 + Math.exp(-(slope * margin + intercept)));
      const residual = probability - target(index);
      const weight = probability * (1 - probability);
      gradientSlope += residual * margin;
      gradientIntercept += residual;
      hessianSlope += weight * margin * margin;
      hessianCross += weight * margin;
      hessianIntercept += weight;
    }
    if (Math.abs(gradientSlope) < 1e-9 * count && Math.abs(gradientIntercept) < 1e-9 * count) break;
    const determinant = hessianSlope * hessianIntercept - hessianCross * hessianCross;
    const stepSlope = -(hessianIntercept * gradientSlope - hessianCross * gradientIntercept) / determinant;
    const stepIntercept = -(hessianSlope * gradientIntercept - hessianCross * gradientSlope) / determinant;
    // Newton's step, halved until the loss goes down (it always does close to the optimum).
    let length = 1;
    let improved = false;
    while (length > 1e-10) {
      const next = loss(slope + length * stepSlope, intercept + length * stepIntercept);
      if (next < current) {
        slope += length * stepSlope;
        intercept += length * stepIntercept;
        improved = current - next > 1e-12 * Math.max(1, current);
        current = next;
        break;
      }
      length /= 2;
    }
    if (!improved) break;
  }
  return { kind: 'platt', slope, intercept };
}

export function plattProbability(calibration: PlattCalibration, margin: number): number {
  return 1 / (1 + Math.exp(-(calibration.slope * margin + calibration.intercept)));
}
