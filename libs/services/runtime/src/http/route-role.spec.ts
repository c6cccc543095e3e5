import type { Principal, UserRole } from '@ringfence/accounts';
import { assertRole, neededRole } from './route-role';

const principal = (role?: UserRole): Principal => ({
  account: { id: 'acc_1', name: 'acme', industry: null, settings: {}, createdAt: new Date() },
  environment: 'test',
  keyKind: 'secret',
  keyId: role ? 'session:ses_1' : 'key_1',
  ...(role ? { user: { userId: 'usr_1', email: 'ann@example.com', name: 'Ann', role } } : {}),
});

describe('route roles (issue 37)', () => {
  it('needs viewer to read and analyst to write when a route declares nothing', () => {
    expect(neededRole(undefined, 'GET')).toBe('viewer');
    expect(neededRole(undefined, 'HEAD')).toBe('viewer');
    expect(neededRole(undefined, 'POST')).toBe('analyst');
    expect(neededRole(undefined, 'DELETE')).toBe('analyst');
    expect(neededRole('rule_author', 'GET')).toBe('rule_author');
    expect(neededRole('integration', 'GET')).toBe('integration');
  });

  it('lets a role do what the ones before it may, and refuses the ones after it naming the role needed', () => {
    expect(() => assertRole(principal('rule_author'), 'analyst')).not.toThrow();
    expect(() => assertRole(principal('admin'), 'rule_author')).not.toThrow();
    expect(() => assertRole(principal('viewer'), 'viewer')).not.toThrow();
    expect(() => assertRole(principal('viewer'), 'analyst')).toThrow(expect.objectContaining({ status: 403, message: 'this action needs the role analyst; you are signed in as viewer' }));
    expect(() => assertRole(principal('rule_author'), 'admin')).toThrow(expect.objectContaining({ status: 403, message: expect.stringContaining('needs the role admin') }));
  });

  it('lets a secret key through every role, and refuses every session on an integration route', () => {
    expect(() => assertRole(principal(), 'admin')).not.toThrow();
    expect(() => assertRole(principal(), 'integration')).not.toThrow();
    expect(() => assertRole(principal('admin'), 'integration')).toThrow(expect.objectContaining({ status: 403, message: expect.stringContaining('for integrations') }));
  });
});
