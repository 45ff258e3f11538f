import type { AccessStateReader, RefreshTokenStore, RotationOutcome } from '@shellgrade/auth';
import type { Pool } from 'pg';

/**
 * Refresh-token sessions: one family per login, so an account may hold many sessions and
 * logout revokes only its own. A token is used once: rotation marks it used and inserts its
 * successor in one statement; a used or revoked token presented again revokes its family.
 * Every replica reads the same table.
 */
export class PgRefreshTokenRepository implements RefreshTokenStore, AccessStateReader {
  constructor(private readonly pool: Pool) {}

  async insert(jti: string, userId: number, familyId: string, expiresAt: Date): Promise<void> {
    await this.pool.query('INSERT INTO refresh_tokens (jti, user_id, family_id, expires_at) VALUES ($1, $2, $3, $4)', [
      jti,
      userId,
      familyId,
      expiresAt,
    ]);
  }

  async rotate(jti: string, userId: number, next: { jti: string; expiresAt: Date }): Promise<RotationOutcome> {
    // The UPDATE's row lock makes two concurrent rotations of one token: one winner, one reuse.
    const { rowCount } = await this.pool.query(
      `WITH spent AS (
         UPDATE refresh_tokens SET used_at = now()
          WHERE jti = $1 AND user_id = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          RETURNING family_id)
       INSERT INTO refresh_tokens (jti, user_id, family_id, expires_at) SELECT $3, $2, family_id, $4 FROM spent`,
      [jti, userId, next.jti, next.expiresAt],
    );
    if (rowCount === 1) return 'rotated';
    const { rows } = await this.pool.query<{ family_id: string }>('SELECT family_id FROM refresh_tokens WHERE jti = $1 AND user_id = $2', [jti, userId]);
    if (!rows[0]) return 'unknown';
    await this.revokeFamily(rows[0].family_id);
    return 'reused';
  }

  async revokeFamily(familyId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [familyId]);
    return (rowCount ?? 0) > 0;
  }

  async familyLive(familyId: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ live: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NULL AND expires_at > now()) AS live',
      [familyId],
    );
    return rows[0]?.live === true;
  }

  /** The account's token version and whether the session is live, in one round trip (AccessStateReader). */
  async accessState(userId: number, familyId: string): Promise<{ tokenVersion: number | null; familyLive: boolean }> {
    const { rows } = await this.pool.query<{ token_version: number | null; live: boolean }>(
      `SELECT (SELECT token_version FROM users WHERE id = $1) AS token_version,
              EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $2 AND revoked_at IS NULL AND expires_at > now()) AS live`,
      [userId, familyId],
    );
    return { tokenVersion: rows[0]?.token_version ?? null, familyLive: rows[0]?.live === true };
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
