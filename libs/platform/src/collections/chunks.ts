/** Consecutive slices of at most `size` items, in order: the rows of one statement, the ids of one read. */
export function* chunks<Item>(items: readonly Item[], size: number): Iterable<Item[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
