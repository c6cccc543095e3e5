import type { CurrentLabelMessage } from '@ringfence/contracts';
import { customerTagsView } from './customer-tags-view';

const label = (review: CurrentLabelMessage['review']) => ({ review, eventTime: 1_763_800_000_000, reviewer: null, comment: null }) as CurrentLabelMessage;

describe('customerTagsView (GET /v2/tag/customer/:customerId)', () => {
  it('lists the tags set true, in order, both as tagNames and as the tags map; removed ones are gone', () => {
    expect(customerTagsView('cus-1', { vip: true, staff: false, beta: true }, {})).toEqual({ customerId: 'cus-1', tagNames: ['beta', 'vip'], tags: { beta: true, vip: true }, label: 'UNREVIEWED' });
  });

  it('a customer never stored or never tagged has none', () => {
    expect(customerTagsView('cus-2', undefined, {})).toMatchObject({ tagNames: [], tags: {} });
  });

  it('the label is the PAYMENT_FRAUD one; a REFUND_ABUSE label alone leaves it UNREVIEWED', () => {
    expect(customerTagsView('cus-3', {}, { PAYMENT_FRAUD: label('FRAUDSTER') }).label).toBe('FRAUDSTER');
    expect(customerTagsView('cus-3', {}, { REFUND_ABUSE: label('REFUND_ABUSE') }).label).toBe('UNREVIEWED');
  });

  it('keeps a tag named "__proto__" as a tag', () => {
    const view = customerTagsView('cus-4', JSON.parse('{"__proto__": true}') as unknown, {});
    expect(view.tagNames).toEqual(['__proto__']);
    expect(Object.keys(view.tags)).toEqual(['__proto__']);
  });
});
