import type { AccessStateReader, RefreshTokenStore, Rotation } from '@shellgrade/auth';
import type { Pool } from 'pg';
import { one, prepared, run } from '../queryable';
import { type UserRow, toUser } from '../rows';

const INSERT = prepared('INSERT INTO refresh_tokens (jti, user_id, family_id, expires_at) VALUES ($1, $2, $3, $4)');

/**
 * The UPDATE's row lock makes two concurrent rotations of one token: one winner, one reuse. The
 * winner's row comes back with the account as it stands (a refresh answers with it); no row: not rotated.
 */
const ROTATE = prepared(`WITH spent AS (
         UPDATE refresh_tokens SET used_at = now()
          WHERE jti = $1 AND user_id = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          RETURNING family_id),
       next AS (
         INSERT INTO refresh_tokens (jti, user_id, family_id, expires_at) SELECT $3, $2, family_id, $4 FROM spent
         RETURNING user_id)
       SELECT u.id, u.email, u.firstname, u.lastname, u.role, u.token_version
         FROM next n LEFT JOIN users u ON u.id = n.user_id`);

const FAMILY_OF = prepared('SELECT family_id FROM refresh_tokens WHERE jti = $1 AND user_id = $2');
const REVOKE_FAMILY = prepared('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL');
const FAMILY_LIVE = prepared('SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NULL AND expires_at > now()) AS live');
const ACCESS_STATE = prepared(`SELECT (SELECT token_version FROM users WHERE id = $1) AS token_version,
              EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $2 AND revoked_at IS NULL AND expires_at > now()) AS live`);

/**
 * Refresh-token sessions: one family per login, so an account may hold many sessions and
 * logout revokes only its own. A token is used once: rotation marks it used and inserts its
 * successor in one statement; a used or revoked token presented again revokes its family.
 * Every replica reads the same table.
 */
export class PgRefreshTokenRepository implements RefreshTokenStore, AccessStateReader {
  constructor(private readonly pool: Pool) {}

  async insert(jti: string, userId: number, familyId: string, expiresAt: Date): Promise<void> {
    await run(this.pool, INSERT, [jti, userId, familyId, expiresAt]);
  }

  /** One round trip when the token was live (the refresh's case): rotated, with the account. */
  async rotate(jti: string, userId: number, next: { jti: string; expiresAt: Date }): Promise<Rotation> {
    const { rows } = await run<Partial<UserRow> & { token_version: number | null }>(this.pool, ROTATE, [jti, userId, next.jti, next.expiresAt]);
    const rotated = rows[0];
    if (rotated) return { outcome: 'rotated', account: rotated.id == null ? null : { user: toUser(rotated as UserRow), tokenVersion: rotated.token_version! } };
    const spent = await one<{ family_id: string }>(this.pool, FAMILY_OF, [jti, userId]);
    if (!spent) return { outcome: 'unknown' };
    await this.revokeFamily(spent.family_id);
    return { outcome: 'reused' };
  }

  async revokeFamily(familyId: string): Promise<boolean> {
    const { rowCount } = await run(this.pool, REVOKE_FAMILY, [familyId]);
    return (rowCount ?? 0) > 0;
  }

  async familyLive(familyId: string): Promise<boolean> {
    return (await one<{ live: boolean }>(this.pool, FAMILY_LIVE, [familyId]))?.live === true;
  }

  /** The account's token version and whether the session is live, in one round trip (AccessStateReader). */
  async accessState(userId: number, familyId: string): Promise<{ tokenVersion: number | null; familyLive: boolean }> {
    const row = await one<{ token_version: number | null; live: boolean }>(this.pool, ACCESS_STATE, [userId, familyId]);
    return { tokenVersion: row?.token_version ?? null, familyLive: row?.live === true };
  }

  async revokeUserSessions(userId: number, keepFamilyId?: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `UPDATE refresh_tokens SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR family_id <> $2::uuid)`,
      [userId, keepFamilyId ?? null],
    );
    return rowCount ?? 0;
  }

  /** Housekeeping: drops expired rows; returns how many. */
  async purgeExpired(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM refresh_tokens WHERE expires_at < now()');
    return rowCount ?? 0;
  }

  /**
   * Drops revoked and expired sessions (a missing row is as inactive as a revoked one), so
   * load tests that log in and out every iteration do not grow the table without bound.
   * Used tokens of live families stay: they are what reuse detection recognises.
   */
  async purgeInactive(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM refresh_tokens WHERE revoked_at IS NOT NULL OR expires_at < now()');
    return rowCount ?? 0;
  }
}
