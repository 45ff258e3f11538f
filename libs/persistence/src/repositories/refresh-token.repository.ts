import type { RefreshTokenStore } from '@shellgrade/auth';
import type { Pool } from 'pg';

/**
 * Refresh-token sessions: one row per login, so an account may hold many sessions and
 * logout revokes only its own. Every replica reads the same table.
 */
export class PgRefreshTokenRepository implements RefreshTokenStore {
  constructor(private readonly pool: Pool) {}

  async insert(jti: string, userId: number, expiresAt: Date): Promise<void> {
    await this.pool.query('INSERT INTO refresh_tokens (jti, user_id, expires_at) VALUES ($1, $2, $3)', [jti, userId, expiresAt]);
  }

  /** True while the token exists, belongs to the user, is not revoked and not expired. */
  async isActive(jti: string, userId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `SELECT 1 FROM refresh_tokens WHERE jti = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()`,
      [jti, userId],
    );
    return rowCount === 1;
  }

  async revoke(jti: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE refresh_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL',
      [jti],
    );
    return rowCount === 1;
  }

  /** Housekeeping: drops expired rows; returns how many. */
  async purgeExpired(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM refresh_tokens WHERE expires_at < now()');
    return rowCount ?? 0;
  }

  /**
   * Drops revoked and expired sessions (a missing row is as inactive as a revoked one), so
   * load tests that log in and out every iteration do not grow the table without bound.
   */
  async purgeInactive(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM refresh_tokens WHERE revoked_at IS NOT NULL OR expires_at < now()');
    return rowCount ?? 0;
  }
}
