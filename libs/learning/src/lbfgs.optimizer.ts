/** Writes the gradient at `point` into `gradient` and returns the objective's value there. */
export type DifferentiableObjective = (point: Float64Array, gradient: Float64Array) => number;

export interface LbfgsOptions {
  maxIterations: number;
  /** Correction pairs kept (the "limited memory"). */
  memory: number;
  /** Converged when the gradient's largest component is below this. */
  gradientTolerance: number;
  /** ...or when an iteration improves the objective by less than this, relative to its size. */
  relativeTolerance: number;
}

export const DEFAULT_LBFGS_OPTIONS: LbfgsOptions = { maxIterations: 200, memory: 10, gradientTolerance: 1e-6, relativeTolerance: 1e-10 };

export interface LbfgsResult {
  solution: Float64Array;
  value: number;
  iterations: number;
  converged: boolean;
}

/**
 * Limited-memory BFGS (Nocedal & Wright, "Numerical Optimization", algorithms 7.4 and 7.5) with a
 * backtracking Armijo line search, for smooth convex objectives such as regularised log loss. On
 * npm, fmin (0.0.4) has no L-BFGS and optimization-js (1.5.0) ships browserify as a runtime
 * dependency; this is a hundred lines over Float64Arrays, and each iteration costs one or two
 * evaluations of the objective, which is where the time goes.
 */
export function minimizeLbfgs(objective: DifferentiableObjective, initial: Float64Array, options: Partial<LbfgsOptions> = {}): LbfgsResult {
  const { maxIterations, memory, gradientTolerance, relativeTolerance } = { ...DEFAULT_LBFGS_OPTIONS, ...options };
  const size = initial.length;
  let point = Float64Array.from(initial);
  let gradient = new Float64Array(size);
  let value = objective(point, gradient);
  const pairs = new CorrectionPairs(memory);
  const direction = new Float64Array(size);
  let nextPoint = new Float64Array(size);
  let nextGradient = new Float64Array(size);

  for (let iteration = 1; iteration <= maxIterations; iteration += 1) {
    if (maxAbs(gradient) < gradientTolerance) return { solution: point, value, iterations: iteration - 1, converged: true };
    const slope = pairs.descentDirection(gradient, direction);
    const nextValue = backtrack(objective, { point, value, direction, slope }, nextPoint, nextGradient);
    if (!(nextValue <= value)) return { solution: point, value, iterations: iteration, converged: false };
    pairs.remember(point, nextPoint, gradient, nextGradient);
    const improvement = value - nextValue;
    [point, nextPoint] = [nextPoint, point];
    [gradient, nextGradient] = [nextGradient, gradient];
    value = nextValue;
    if (improvement <= relativeTolerance * Math.max(1, Math.abs(value))) return { solution: point, value, iterations: iteration, converged: true };
  }
  return { solution: point, value, iterations: maxIterations, converged: maxAbs(gradient) < gradientTolerance };
}

/** The last `memory` steps and gradient changes, whose curvature makes the inverse Hessian estimate. */
class CorrectionPairs {
  private readonly steps: Float64Array[] = [];
  private readonly gradientChanges: Float64Array[] = [];
  private readonly curvatures: number[] = [];
  private readonly alphas: Float64Array;

  constructor(private readonly memory: number) {
    this.alphas = new Float64Array(memory);
  }

  /**
   * Writes −H·gradient into `direction` (the two-loop recursion, H the inverse Hessian estimate)
   * and returns the slope along it; restarts from steepest descent when that is no descent.
   */
  descentDirection(gradient: Float64Array, direction: Float64Array): number {
    const { steps, gradientChanges, curvatures, alphas } = this;
    const size = gradient.length;
    direction.set(gradient);
    for (let pair = steps.length - 1; pair >= 0; pair -= 1) {
      alphas[pair] = dot(steps[pair], direction) / curvatures[pair];
      axpy(-alphas[pair], gradientChanges[pair], direction);
    }
    const scale = steps.length > 0 ? curvatures[steps.length - 1] / dot(gradientChanges[steps.length - 1], gradientChanges[steps.length - 1]) : 1 / Math.max(1, Math.sqrt(dot(gradient, gradient)));
    for (let index = 0; index < size; index += 1) direction[index] *= scale;
    for (let pair = 0; pair < steps.length; pair += 1) {
      const beta = dot(gradientChanges[pair], direction) / curvatures[pair];
      axpy(alphas[pair] - beta, steps[pair], direction);
    }
    for (let index = 0; index < size; index += 1) direction[index] = -direction[index];
    const slope = dot(gradient, direction);
    if (slope < 0) return slope;
    // Not a descent direction (curvature lost to rounding): restart from steepest descent.
    steps.length = 0;
    gradientChanges.length = 0;
    curvatures.length = 0;
    for (let index = 0; index < size; index += 1) direction[index] = -gradient[index] / Math.max(1, Math.sqrt(dot(gradient, gradient)));
    return dot(gradient, direction);
  }

  /** Keeps the step from `point` to `nextPoint` when its curvature is positive, forgetting the oldest past `memory`. */
  remember(point: Float64Array, nextPoint: Float64Array, gradient: Float64Array, nextGradient: Float64Array): void {
    const size = point.length;
    const step = new Float64Array(size);
    const gradientChange = new Float64Array(size);
    for (let index = 0; index < size; index += 1) {
      step[index] = nextPoint[index] - point[index];
      gradientChange[index] = nextGradient[index] - gradient[index];
    }
    const curvature = dot(step, gradientChange);
    if (curvature <= 1e-12) return;
    if (this.steps.length === this.memory) {
      this.steps.shift();
      this.gradientChanges.shift();
      this.curvatures.shift();
    }
    this.steps.push(step);
    this.gradientChanges.push(gradientChange);
    this.curvatures.push(curvature);
  }
}

/**
 * Backtracking Armijo line search from `from.point` along `from.direction`: halves the step until
 * it decreases the objective enough (40 halvings at most). Leaves the last point tried and its
 * gradient in `nextPoint` and `nextGradient`, and returns the objective there.
 */
function backtrack(
  objective: DifferentiableObjective,
  from: { point: Float64Array; value: number; direction: Float64Array; slope: number },
  nextPoint: Float64Array,
  nextGradient: Float64Array,
): number {
  const { point, value, direction, slope } = from;
  let stepLength = 1;
  let nextValue = Number.NaN;
  for (let attempt = 0; attempt < 40; attempt += 1) {
    for (let index = 0; index < point.length; index += 1) nextPoint[index] = point[index] + stepLength * direction[index];
    nextValue = objective(nextPoint, nextGradient);
    if (nextValue <= value + 1e-4 * stepLength * slope) break;
    stepLength /= 2;
  }
  return nextValue;
}

function dot(left: Float64Array, right: Float64Array): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += left[index] * right[index];
  return sum;
}

/** target += factor × source */
function axpy(factor: number, source: Float64Array, target: Float64Array): void {
  for (let index = 0; index < source.length; index += 1) target[index] += factor * source[index];
}

function maxAbs(vector: Float64Array): number {
  let largest = 0;
  for (let index = 0; index < vector.length; index += 1) largest = Math.max(largest, Math.abs(vector[index]));
  return largest;
}
