import { plainToInstance } from 'class-transformer';
import { CustomerRequestDto } from '@ringfence/contracts';
import { findReservedKeys, reservedKeyProblems } from './reserved-keys';

describe(findReservedKeys.name, () => {
  it('names every constructor key, at any depth, in payload order', () => {
    const body = JSON.parse('{"constructor":1,"customer":{"tags":{"constructor":true}},"items":[{"a":{"constructor":"x"}}]}') as unknown;
    expect(findReservedKeys(body)).toEqual(['constructor', 'customer.tags.constructor', 'items.0.a.constructor']);
    expect(reservedKeyProblems(body)[1]).toBe('customer.tags.constructor: must not be a key named constructor');
  });

  it('leaves constructor as a value, and other keys, alone', () => {
    expect(findReservedKeys({ customer: { customerId: 'constructor', prototype: 1, __proto__x: 2 }, list: ['constructor'] })).toEqual([]);
  });

  it('walks a body nested far deeper than the stack allows recursion', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}{"constructor":1}${'}'.repeat(100_000)}`) as unknown;
    expect(findReservedKeys(deep)).toHaveLength(1);
  });

  it('refuses what class-transformer cannot take: such a key under an untyped object throws there', () => {
    const body = { timestamp: 1763800000000, customer: { customerId: 'c', tags: JSON.parse('{"constructor":true}') as unknown } };
    expect(() => plainToInstance(CustomerRequestDto, body)).toThrow(TypeError);
    expect(findReservedKeys(body)).toEqual(['customer.tags.constructor']);
  });
});
