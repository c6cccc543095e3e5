import type { ActiveSession, SessionRecord, SessionRepository, UserChanges, UserRecord, UserRepository, UserRole } from '@ringfence/accounts';
import type { Environment } from '@ringfence/contracts';
import { queryRows } from '@ringfence/persistence';
import { IsNull, QueryFailedError, type DataSource, type Repository } from 'typeorm';
import { UserEntity, UserSessionEntity } from '../entities/user.entity';

const UNIQUE_VIOLATION = '23505';

/** An account's named people in `users`. */
export class TypeOrmUserRepository implements UserRepository {
  private readonly users: Repository<UserRecord>;

  constructor(dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  async insert(user: UserRecord): Promise<boolean> {
    try {
      await this.users.insert({ ...user });
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }

  findByEmail(email: string): Promise<UserRecord | null> {
    return this.users.findOneBy({ email });
  }

  findById(accountId: string, userId: string): Promise<UserRecord | null> {
    return this.users.findOneBy({ id: userId, accountId });
  }

  listForAccount(accountId: string): Promise<UserRecord[]> {
    return this.users.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async update(accountId: string, userId: string, changes: UserChanges): Promise<UserRecord | null> {
    if (Object.keys(changes).length > 0) await this.users.update({ id: userId, accountId }, changes);
    return this.findById(accountId, userId);
  }
}

interface ActiveSessionRow {
  id: string;
  account_id: string;
  user_id: string;
  environment: Environment;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  email: string;
  name: string;
  role: UserRole;
  user_created_at: Date;
  created_by: string;
}

// Every console request runs this: one indexed lookup (uq_user_sessions_token_hash) and the
// user by primary key, in one round trip. Not the password hash: the answer is cached.
const FIND_ACTIVE_BY_HASH = `
  SELECT s.id, s.account_id, s.user_id, s.environment, s.token_hash, s.created_at, s.expires_at,
         u.email, u.name, u.role, u.created_at AS user_created_at, u.created_by
    FROM user_sessions s
    JOIN users u ON u.id = s.user_id
   WHERE s.token_hash = $1 AND s.ended_at IS NULL AND NOT u.disabled`;

/** Console sessions in `user_sessions`, stored only as their token's hash. */
export class TypeOrmSessionRepository implements SessionRepository {
  private readonly sessions: Repository<SessionRecord>;

  constructor(private readonly dataSource: DataSource) {
    this.sessions = dataSource.getRepository(UserSessionEntity);
  }

  async insert(session: SessionRecord): Promise<void> {
    await this.sessions.insert({ ...session });
  }

  async findActiveByHash(tokenHash: string): Promise<ActiveSession | null> {
    const [row] = await queryRows<ActiveSessionRow>(this.dataSource, FIND_ACTIVE_BY_HASH, [tokenHash]);
    if (row === undefined) return null;
    return {
      session: {
        id: row.id,
        accountId: row.account_id,
        userId: row.user_id,
        environment: row.environment,
        tokenHash: row.token_hash,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        endedAt: null,
      },
      user: {
        id: row.user_id,
        accountId: row.account_id,
        email: row.email,
        name: row.name,
        role: row.role,
        disabled: false,
        createdAt: row.user_created_at,
        createdBy: row.created_by,
      },
    };
  }

  async end(sessionId: string, at: Date): Promise<boolean> {
    const result = await this.sessions.update({ id: sessionId, endedAt: IsNull() }, { endedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async endAllOfUser(userId: string, at: Date): Promise<number> {
    const result = await this.sessions.update({ userId, endedAt: IsNull() }, { endedAt: at });
    return result.affected ?? 0;
  }
}
