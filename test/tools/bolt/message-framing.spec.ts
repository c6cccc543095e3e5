import fc from 'fast-check';
import { MessageDechunker, OutgoingMessages } from './message-framing';
import { BoltStructure, decodePackStream } from './packstream';

describe(OutgoingMessages.name, () => {
  it('frames a message as its size, its bytes and an empty chunk', () => {
    const outgoing = new OutgoingMessages();

    outgoing.add(0x70, [{}]);

    expect(outgoing.take().toString('hex')).toBe('0003b170a00000');
  });

  it('splits a message of more than 65,535 bytes into full chunks', () => {
    const outgoing = new OutgoingMessages();
    const text = 'x'.repeat(70_000);

    outgoing.add(0x71, [[text]]);
    const framed = outgoing.take();

    expect(framed.readUInt16BE(0)).toBe(0xffff);
    const secondChunk = framed.readUInt16BE(2 + 0xffff);
    expect(2 + 0xffff + 2 + secondChunk + 2).toBe(framed.length);
    expect(framed.readUInt16BE(framed.length - 2)).toBe(0);
    const [message] = new MessageDechunker().push(framed);
    expect(decodePackStream(message)).toEqual(new BoltStructure(0x71, [[text]]));
  });
});

describe(MessageDechunker.name, () => {
  it('rebuilds the messages however the stream is cut, skipping keep-alive chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 70_000 }), { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 10 }), (texts, cuts) => {
        const outgoing = new OutgoingMessages();
        for (const text of texts) outgoing.add(0x10, [text]);
        const stream = Buffer.concat([Buffer.from([0, 0]), outgoing.take()]);
        const offsets = [...new Set(cuts.map((cut) => cut % stream.length))].sort((a, b) => a - b);
        const pieces = [0, ...offsets].map((start, index, all) => stream.subarray(start, all[index + 1] ?? stream.length));

        const dechunker = new MessageDechunker();
        const messages = pieces.flatMap((piece) => dechunker.push(piece));

        expect(messages.map((message) => decodePackStream(message))).toEqual(texts.map((text) => new BoltStructure(0x10, [text])));
      }),
      { numRuns: 50 },
    );
  });
});
