import { type SessionRepository, type UserRecord, type UserRepository, hashPassword } from '@ringfence/accounts';
import type { RingfenceConfig } from '@ringfence/platform';
import { PeopleUseCase } from './people.use-case';
import { SIGN_IN_FAILURES_PER_EMAIL, SignInAttempts } from './sign-in-attempts.service';

const PASSWORD = 'correct horse battery staple';

/** Users looked up by e-mail (each look-up is one password verified), counting look-ups and the most at once. */
function usersWith(user: UserRecord) {
  const seen = { lookups: 0, running: 0, mostAtOnce: 0 };
  const users = {
    findByEmail: async (email: string) => {
      seen.lookups += 1;
      seen.running += 1;
      seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.running -= 1;
      return email === user.email ? user : null;
    },
  } as Partial<UserRepository> as UserRepository;
  return { users, seen };
}

async function peopleWith(email: string) {
  const user: UserRecord = {
    id: 'usr_1',
    accountId: 'acc-1',
    email,
    name: 'Ana',
    role: 'analyst',
    passwordHash: await hashPassword(PASSWORD),
    disabled: false,
    createdAt: new Date(0),
    createdBy: 'key k1',
  };
  const { users, seen } = usersWith(user);
  const sessions = { insert: async () => undefined } as Partial<SessionRepository> as SessionRepository;
  const people = new PeopleUseCase(users, sessions, { sessionTtlSeconds: 3600 } as RingfenceConfig, new SignInAttempts());
  return { people, seen };
}

describe('sign-in throttling', () => {
  it('verifies no more wrong passwords sent in parallel than the limit, one at a time per e-mail, and refuses the rest with 429', async () => {
    const { people, seen } = await peopleWith('ana@shop.example');
    const answers = await Promise.allSettled(Array.from({ length: 30 }, () => people.signIn('10.0.0.1', 'ana@shop.example', 'wrong guess', 'test')));

    expect(seen.lookups).toBe(SIGN_IN_FAILURES_PER_EMAIL);
    expect(seen.mostAtOnce).toBe(1);
    const codes = answers.map((answer) => (answer.status === 'rejected' ? (answer.reason as { code?: string }).code : 'signed in'));
    expect(codes.filter((code) => code === 'UNAUTHENTICATED')).toHaveLength(SIGN_IN_FAILURES_PER_EMAIL);
    expect(codes.filter((code) => code === 'RATE_LIMITED')).toHaveLength(30 - SIGN_IN_FAILURES_PER_EMAIL);
  });

  it('gives the attempt back when the sign-in succeeds, so a person signing in often is never refused', async () => {
    const { people, seen } = await peopleWith('ben@shop.example');
    for (let index = 0; index < SIGN_IN_FAILURES_PER_EMAIL + 2; index += 1) {
      await expect(people.signIn('10.0.0.2', 'Ben@Shop.example', PASSWORD, 'test')).resolves.toMatchObject({ user: { email: 'ben@shop.example' } });
    }
    expect(seen.lookups).toBe(SIGN_IN_FAILURES_PER_EMAIL + 2);
  });
});
