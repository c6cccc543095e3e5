import { type IsotonicCalibration, fitIsotonicCalibration, isotonicProbability } from './isotonic-calibration';
import { sigmoid } from './margin-predictor';
import { type PlattCalibration, fitPlattCalibration, plattProbability } from './platt-calibration';

/** How a model's margin becomes a probability that means what it says on held-out data. */
export type Calibration = IsotonicCalibration | PlattCalibration;
export type CalibrationKind = Calibration['kind'];

export function fitCalibration(kind: CalibrationKind, margins: ArrayLike<number>, labels: ArrayLike<number>): Calibration {
  switch (kind) {
    case 'isotonic':
      return fitIsotonicCalibration(margins, labels);
    case 'platt':
      return fitPlattCalibration(margins, labels);
  }
}

/** The calibrated probability of a margin; the plain sigmoid without a calibration. */
export function calibratedProbability(calibration: Calibration | null, margin: number): number {
  if (calibration === null) return sigmoid(margin);
  switch (calibration.kind) {
    case 'isotonic':
      return isotonicProbability(calibration, margin);
    case 'platt':
      return plattProbability(calibration, margin);
  }
}

/**
 * The 0–100 score of a calibrated probability: the probability in percent, rounded. Because the
 * probability is calibrated on held-out data at every training, "score ≥ 80" keeps meaning "at
 * least about 80 % of such examples were fraud" across retrains, so thresholds set on scores need
 * no retuning when a model changes; a raw margin or an uncalibrated rank would not keep that.
 */
export function riskScore(probability: number): number {
  if (!(probability > 0)) return 0;
  return Math.round(Math.min(1, probability) * 100);
}
