const HOUR_MS = 3_600_000;

/**
 * Relative traffic by hour of the day (UTC; the marketplace's markets are in Europe): quiet
 * nights, a lunch peak and a larger evening peak, as food and retail marketplaces see.
 */
const HOURLY_PROFILE = [0.25, 0.15, 0.1, 0.08, 0.08, 0.12, 0.3, 0.6, 0.8, 0.9, 1.0, 1.2, 1.6, 1.4, 1.0, 0.9, 1.0, 1.3, 1.8, 2.0, 1.9, 1.5, 1.0, 0.5];
const WEEKEND_FACTOR = 1.15;

/**
 * Maps wall time to "activity time" (the integral of the traffic intensity) and back. Sampling
 * evenly in activity time and mapping back gives a non-homogeneous Poisson process that follows
 * the daily and weekly rhythm, and the mapping is monotone, so sorted samples stay sorted.
 * One activity unit is one hour at average intensity.
 */
export class ActivityClock {
  /** cumulative[i] = activity units from `start` to the start of hour i. */
  private readonly cumulative: Float64Array;
  private readonly weights: Float64Array;

  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    const hours = Math.max(1, Math.ceil((end - start) / HOUR_MS));
    this.weights = new Float64Array(hours);
    let weekTotal = 0;
    for (let hour = 0; hour < 24 * 7; hour += 1) weekTotal += ActivityClock.weightAt(Date.UTC(2024, 0, 1) + hour * HOUR_MS);
    const scale = (24 * 7) / weekTotal;
    for (let hour = 0; hour < hours; hour += 1) this.weights[hour] = ActivityClock.weightAt(start + hour * HOUR_MS) * scale;
    this.cumulative = new Float64Array(hours + 1);
    for (let hour = 0; hour < hours; hour += 1) this.cumulative[hour + 1] = (this.cumulative[hour] ?? 0) + (this.weights[hour] ?? 0);
  }

  /** Total activity units between start and end. */
  get total(): number {
    return this.cumulative[this.cumulative.length - 1] ?? 0;
  }

  private static weightAt(time: number): number {
    const date = new Date(time);
    const day = date.getUTCDay();
    return (HOURLY_PROFILE[date.getUTCHours()] ?? 1) * (day === 0 || day === 6 ? WEEKEND_FACTOR : 1);
  }

  /** Activity units from `start` to `time` (beyond the table, one unit an hour). */
  activityAt(time: number): number {
    const offset = (time - this.start) / HOUR_MS;
    if (offset <= 0) return offset;
    const hours = this.weights.length;
    if (offset >= hours) return this.total + (offset - hours);
    const hour = Math.floor(offset);
    return (this.cumulative[hour] ?? 0) + (offset - hour) * (this.weights[hour] ?? 0);
  }

  /** The wall time at which `units` of activity have passed since `start`. */
  timeAt(units: number): number {
    if (units <= 0) return this.start + units * HOUR_MS;
    const total = this.total;
    if (units >= total) return this.start + (this.weights.length + (units - total)) * HOUR_MS;
    let low = 0;
    let high = this.weights.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.cumulative[middle] ?? 0) <= units) low = middle;
      else high = middle - 1;
    }
    const within = (units - (this.cumulative[low] ?? 0)) / (this.weights[low] ?? 1);
    return Math.round(this.start + (low + within) * HOUR_MS);
  }

  /** The time `meanHours` of average activity after `time`, exponentially distributed: the next event of a Poisson process. */
  after(time: number, meanHours: number, uniform: number): number {
    const gap = -Math.log(1 - uniform) * meanHours;
    return Math.max(time + 1, this.timeAt(this.activityAt(time) + gap));
  }
}
