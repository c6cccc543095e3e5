/** Consecutive slices of at most `size` rows: the rows of one write statement. */
export function* chunks<Row>(rows: readonly Row[], size: number): Iterable<readonly Row[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}
