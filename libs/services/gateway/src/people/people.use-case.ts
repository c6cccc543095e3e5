import { Inject, Injectable } from '@nestjs/common';
import {
  PeopleAdministration,
  type Principal,
  SESSION_REPOSITORY,
  type SessionRepository,
  USER_REPOSITORY,
  type UserRecord,
  type UserRepository,
  actorOf,
  hashSessionToken,
  normalisedEmail,
  sessionIdOf,
} from '@ringfence/accounts';
import { AppError, type RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import type { CreateUserRequestDto, CurrentSessionDto, SessionDto, UpdateUserRequestDto, UserDto } from './people.dto';
import { SignInAttempts } from './sign-in-attempts.service';

const userDto = (user: UserRecord): UserDto => ({
  userId: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  disabled: user.disabled,
  createdAt: user.createdAt.getTime(),
  createdBy: user.createdBy,
});

/** One message for an unknown address, a wrong password and a disabled user: none tells which. */
const WRONG_CREDENTIALS = 'e-mail address or password wrong';

/** Issue 37's people routes: sign-in and sign-out, and an account's users. */
@Injectable()
export class PeopleUseCase {
  private readonly people: PeopleAdministration;

  constructor(
    @Inject(USER_REPOSITORY) users: UserRepository,
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepository,
    @Inject(RINGFENCE_CONFIG) config: RingfenceConfig,
    private readonly attempts: SignInAttempts,
  ) {
    this.people = new PeopleAdministration(users, sessions, { sessionTtlSeconds: config.sessionTtlSeconds });
  }

  async signIn(addressKey: string, email: string, password: string, environment: 'test' | 'live'): Promise<SessionDto> {
    const emailKey = normalisedEmail(email);
    const signedIn = await this.attempts.attempt(addressKey, emailKey, () => this.people.signIn(emailKey, password, environment));
    if (!signedIn) throw new AppError('UNAUTHENTICATED', WRONG_CREDENTIALS);
    const { token, session, user } = signedIn;
    return { token, expiresAt: session.expiresAt.getTime(), environment, user: { userId: user.id, email: user.email, name: user.name, role: user.role } };
  }

  /** The request's own credential: a session with its person, or a key (`user: null`). */
  async current(principal: Principal, token: string | undefined): Promise<CurrentSessionDto> {
    if (!principal.user || token === undefined) return { user: null, environment: principal.environment, expiresAt: null };
    const found = await this.sessions.findActiveByHash(hashSessionToken(token));
    return { user: principal.user, environment: principal.environment, expiresAt: found ? found.session.expiresAt.getTime() : null };
  }

  async signOut(principal: Principal): Promise<void> {
    const sessionId = sessionIdOf(principal);
    if (sessionId === null) throw new AppError('VALIDATION_FAILED', 'this request is authenticated by an API key, not a console session: there is nothing to sign out of (keys are revoked by the operator)');
    await this.people.signOut(sessionId);
  }

  async list(principal: Principal): Promise<UserDto[]> {
    return (await this.people.listUsers(principal.account.id)).map(userDto);
  }

  async create(principal: Principal, body: CreateUserRequestDto): Promise<UserDto> {
    return userDto(await this.people.createUser(principal.account.id, actorOf(principal), body));
  }

  /** An admin may not disable or demote themselves: the account could be left without one (409). */
  async update(principal: Principal, userId: string, body: UpdateUserRequestDto): Promise<UserDto> {
    if (principal.user?.userId === userId && (body.disabled === true || (body.role !== undefined && body.role !== principal.user.role))) {
      throw new AppError('CONFLICT', 'you may not disable yourself or change your own role; ask another admin, or use the secret key');
    }
    return userDto(await this.people.updateUser(principal.account.id, userId, body));
  }
}
