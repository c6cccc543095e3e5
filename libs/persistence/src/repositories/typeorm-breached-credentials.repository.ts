import type { BreachedCredential, BreachedCredentialsRepository } from '@ringfence/credentials';
import type { DataSource } from 'typeorm';
import { queryRows } from '../sql';

const PASSWORD_HASHES_OF = 'SELECT password_sha256 FROM breached_credentials WHERE username = $1';

// Duplicates inside one batch are fine with DO NOTHING (DO UPDATE would refuse them).
const INSERT = `
  WITH inserted AS (
    INSERT INTO breached_credentials (username, password_sha256)
    SELECT * FROM unnest($1::text[], $2::text[])
    ON CONFLICT (username, password_sha256) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS inserted FROM inserted`;

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * A failed statement without its SQL, parameters or data. The driver's and TypeORM's errors
 * carry them (`parameters`, `detail` with the failing row, values quoted in some messages), and
 * an error is logged with all its fields: the password hashes of an import must not reach a log
 * line that way. What stays is what tells the failure apart: the SQLSTATE and constraint, or,
 * for a connection failure (no data in it), the driver's message; with the code kept, an outage
 * is still recognised as one (503, not 500).
 */
export class BreachedCredentialsStoreError extends Error {
  readonly code?: string;

  constructor(operation: string, error: unknown) {
    const driverError = ((error as { driverError?: unknown })?.driverError ?? error) as { code?: unknown; constraint?: unknown };
    const code = typeof driverError?.code === 'string' ? driverError.code : undefined;
    const constraint = typeof driverError?.constraint === 'string' ? ` (${driverError.constraint})` : '';
    const reason =
      code !== undefined && SQLSTATE.test(code)
        ? `SQLSTATE ${code}${constraint}`
        : driverError instanceof Error
          ? driverError.message
          : 'unknown error';
    super(`${operation} failed: ${reason}`);
    this.name = 'BreachedCredentialsStoreError';
    this.code = code;
  }
}

/** Breached username → password SHA-256 pairs in `breached_credentials` (global, no tenant). */
export class TypeOrmBreachedCredentialsRepository implements BreachedCredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async passwordHashesOf(username: string): Promise<string[]> {
    const rows = await queryRows<{ password_sha256: string }>(this.dataSource, PASSWORD_HASHES_OF, [username]);
    return rows.map((row) => row.password_sha256);
  }

  async insert(credentials: readonly BreachedCredential[]): Promise<number> {
    if (credentials.length === 0) return 0;
    const usernames = credentials.map((credential) => credential.username);
    const hashes = credentials.map((credential) => credential.passwordHash);
    try {
      const [row] = await queryRows<{ inserted: number }>(this.dataSource, INSERT, [usernames, hashes]);
      return row.inserted;
    } catch (error: unknown) {
      throw new BreachedCredentialsStoreError('storing breached credentials', error);
    }
  }
}
