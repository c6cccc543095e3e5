import { ROLES, type Role, type SessionPerson, mayAct } from '../../apps/console/src/roles';

/** The console's role checks (issue 37) fail closed: no session may do nothing. */
describe('mayAct', () => {
  const person = (role: Role): SessionPerson => ({ userId: 'u1', email: 'a@example.com', name: 'A', role, environment: 'test', expiresAt: Date.now() + 60_000 });

  it('refuses everything without a session', () => {
    for (const needed of ROLES) {
      expect(mayAct(null, needed)).toBe(false);
      expect(mayAct(undefined, needed)).toBe(false);
    }
  });

  it('allows a secret key (a session with no person) everything', () => {
    for (const needed of ROLES) expect(mayAct({}, needed)).toBe(true);
  });

  it('allows a person what their role and the roles below it allow', () => {
    expect(mayAct({ person: person('viewer') }, 'viewer')).toBe(true);
    expect(mayAct({ person: person('viewer') }, 'analyst')).toBe(false);
    expect(mayAct({ person: person('analyst') }, 'analyst')).toBe(true);
    expect(mayAct({ person: person('analyst') }, 'rule_author')).toBe(false);
    expect(mayAct({ person: person('rule_author') }, 'rule_author')).toBe(true);
    expect(mayAct({ person: person('rule_author') }, 'admin')).toBe(false);
    expect(mayAct({ person: person('admin') }, 'admin')).toBe(true);
  });
});
