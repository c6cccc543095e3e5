import { OvertakenReads } from './overtaken-reads';

describe(OvertakenReads.name, () => {
  it('marks a read overtaken for a key whose write began while it was in flight', () => {
    const reads = new OvertakenReads();
    const read = reads.beginRead(['a', 'b']);
    reads.beginWrite(['b']);
    reads.endWrite(['b']);
    reads.endRead(['a', 'b'], read);
    expect([...read.overtaken]).toEqual(['b']);
  });

  it('marks a read overtaken for a key whose write was in flight when it began', () => {
    const reads = new OvertakenReads();
    reads.beginWrite(['a']);
    const read = reads.beginRead(['a']);
    reads.endWrite(['a']);
    reads.endRead(['a'], read);
    expect([...read.overtaken]).toEqual(['a']);
  });

  it('leaves a read that began after the write ended, and forgets both', () => {
    const reads = new OvertakenReads();
    reads.beginWrite(['a']);
    reads.beginWrite(['a']);
    reads.endWrite(['a']);
    expect([...reads.beginRead(['a']).overtaken]).toEqual(['a']);
    reads.endWrite(['a']);
    const read = reads.beginRead(['a']);
    reads.endRead(['a'], read);
    reads.beginWrite(['a']);
    expect(read.overtaken.size).toBe(0);
  });
});
