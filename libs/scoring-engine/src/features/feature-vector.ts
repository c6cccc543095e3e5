import type { Checkpoint } from '@ringfence/contracts';
import type { FeatureValue } from './feature-definition';

/** A checkpoint's features in catalogue order, and the position of each name in its vectors. */
export class FeatureLayout {
  private readonly positions: ReadonlyMap<string, number>;

  constructor(
    readonly checkpoint: Checkpoint,
    readonly names: readonly string[],
  ) {
    this.positions = new Map(names.map((name, position) => [name, position]));
  }

  /** The position of `name` in this checkpoint's vectors; undefined when the checkpoint does not compute it. */
  positionOf(name: string): number | undefined {
    return this.positions.get(name);
  }
}

/**
 * One checkpoint's feature vector: its values in an array indexed by the checkpoint's catalogue
 * layout, read by name through the layout. The scoring path keeps the vector as it is: a record
 * by name of every feature (200 and more properties) costs tens of kilobytes to build, since V8
 * grows an object's property store a few slots at a time, where the array is one allocation of
 * eight bytes a feature. `toRecord` builds that record for the readers that need one (a learned
 * model, the rules), once. A plain array rather than a Float64Array: features are booleans,
 * strings and nulls too, and a numeric encoding of those would cost a decoding on every read for
 * no fewer bytes.
 */
export class FeatureVector {
  private record: Record<string, FeatureValue> | undefined;

  constructor(
    readonly layout: FeatureLayout,
    readonly values: readonly FeatureValue[],
  ) {}

  /** Whether the checkpoint computes the feature (its value may be null). */
  has(name: string): boolean {
    return this.layout.positionOf(name) !== undefined;
  }

  /** The feature's value; undefined when the checkpoint does not compute it. */
  get(name: string): FeatureValue | undefined {
    const position = this.layout.positionOf(name);
    return position === undefined ? undefined : this.values[position];
  }

  /** Every feature by name, in catalogue order (built on the first call, then the same object). */
  toRecord(): Readonly<Record<string, FeatureValue>> {
    if (this.record === undefined) {
      const record: Record<string, FeatureValue> = {};
      const { names } = this.layout;
      for (let position = 0; position < names.length; position += 1) record[names[position]] = this.values[position];
      this.record = record;
    }
    return this.record;
  }
}
