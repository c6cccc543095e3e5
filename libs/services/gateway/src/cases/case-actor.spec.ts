import type { Principal } from '@ringfence/accounts';
import { assigneeFilter } from './case-actor';

const ana = { user: { email: 'ana@shop.example', name: 'Ana' }, keyId: 'key_Ab1' } as unknown as Principal;
const key = { keyId: 'key_Ab1' } as unknown as Principal;

describe('the cases list assignee filter', () => {
  it('lower-cases an e-mail as people e-mails are stored, so a mixed-case address finds their cases', () => {
    expect(assigneeFilter(ana, ' Ben@Shop.Example ')).toEqual({ assignee: 'ben@shop.example' });
  });

  it('reads me as the principal, none as unassigned, and keeps a key actor as written', () => {
    expect(assigneeFilter(ana, 'me')).toEqual({ assignee: 'ana@shop.example' });
    expect(assigneeFilter(key, 'me')).toEqual({ assignee: 'key key_Ab1' });
    expect(assigneeFilter(ana, 'none')).toEqual({ unassigned: true });
    expect(assigneeFilter(ana, 'key key_Ab1')).toEqual({ assignee: 'key key_Ab1' });
    expect(assigneeFilter(ana, undefined)).toEqual({});
  });
});
