import fc from 'fast-check';
import { envelopeText, type MessageEnvelope, payloadText, toWireJson } from './message-envelope';

class Payload {
  when = new Date(Date.UTC(2026, 10, 26));
  tags = new Map([['vip', true]]);
  nested = { amount: 5, items: [{ sku: 'a' }] };
  toJSON(): object {
    return { when: this.when, tags: Object.fromEntries(this.tags), nested: this.nested };
  }
}

describe(toWireJson.name, () => {
  it('gives the payload as JSON text would carry it', () => {
    expect(toWireJson(new Payload())).toEqual({ when: '2026-11-26T00:00:00.000Z', tags: { vip: true }, nested: { amount: 5, items: [{ sku: 'a' }] } });
  });

  it('makes one wire form per payload and shares it, frozen all the way down', () => {
    const payload = new Payload();
    const wire = toWireJson(payload);
    expect(toWireJson(payload)).toBe(wire);
    expect(toWireJson(new Payload())).not.toBe(wire);
    expect(() => {
      (wire.nested as { items: Array<{ sku: string }> }).items[0].sku = 'b';
    }).toThrow(TypeError);
    expect(toWireJson(payload)).toEqual(toWireJson(new Payload()));
  });
});

describe(envelopeText.name, () => {
  const envelope = (payload: unknown): MessageEnvelope<unknown> => ({
    eventId: 'evt_1',
    accountId: 'acc_1',
    environment: 'test',
    subjectId: 'cus "1"',
    acceptedAt: 1_764_115_200_000,
    traceId: 'trace\u2028',
    payload,
  });

  it('is the text JSON.stringify gives: the same keys in the same order, toJSON honoured, undefined left out', () => {
    const withPayload = envelope(new Payload());
    expect(envelopeText(withPayload)).toBe(JSON.stringify(withPayload));
    const reordered = { payload: { a: 1 }, eventId: 'evt_2', traceId: undefined } as unknown as MessageEnvelope<unknown>;
    expect(envelopeText(reordered)).toBe(JSON.stringify(reordered));
    expect(envelopeText(envelope(undefined))).toBe(JSON.stringify(envelope(undefined)));
  });

  it('equals JSON.stringify for any JSON payload', () => {
    fc.assert(fc.property(fc.jsonValue(), (payload) => envelopeText(envelope(payload)) === JSON.stringify(envelope(payload))));
  });

  it("makes a payload's text once, and the wire form and the stored text read afterwards come from it", () => {
    const payload = new Payload();
    const toJSON = jest.spyOn(payload, 'toJSON');
    const text = envelopeText(envelope(payload));
    expect(toWireJson(payload)).toEqual(JSON.parse(text).payload);
    expect(envelopeText(envelope(payload))).toBe(text);
    expect(payloadText(payload)).toBe(JSON.stringify(JSON.parse(text).payload));
    expect(toJSON).toHaveBeenCalledTimes(1);
  });
});
