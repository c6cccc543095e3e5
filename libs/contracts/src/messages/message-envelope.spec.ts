import { toWireJson } from './message-envelope';

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
