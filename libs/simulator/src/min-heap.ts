/**
 * A binary min-heap ordered by `time`, then by insertion order, so items due at the same moment
 * come out in the order they were scheduled (which keeps a seeded run reproducible).
 */
export class TimeOrderedHeap<T extends { time: number }> {
  private readonly items: Array<{ item: T; order: number }> = [];
  private inserted = 0;
  private largest = 0;

  get size(): number {
    return this.items.length;
  }

  /** The most items the heap held at once. */
  get peakSize(): number {
    return this.largest;
  }

  push(item: T): void {
    this.items.push({ item, order: (this.inserted += 1) });
    this.largest = Math.max(this.largest, this.items.length);
    this.siftUp(this.items.length - 1);
  }

  peek(): T | undefined {
    return this.items[0]?.item;
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftDown(0);
    }
    return top.item;
  }

  private before(left: number, right: number): boolean {
    const a = this.items[left];
    const b = this.items[right];
    if (a === undefined || b === undefined) return false;
    return a.item.time < b.item.time || (a.item.time === b.item.time && a.order < b.order);
  }

  private swap(left: number, right: number): void {
    const held = this.items[left];
    const other = this.items[right];
    if (held === undefined || other === undefined) return;
    this.items[left] = other;
    this.items[right] = held;
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(child, parent)) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < this.items.length && this.before(left, smallest)) smallest = left;
      if (right < this.items.length && this.before(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }
}
