import type { Account, CredentialStore } from '@shellgrade/auth';
import type { NewUser, Role, User, UserPatch, UserRepository } from '@shellgrade/domain';
import type { Pool } from 'pg';
import { allAs, deleteById, insertOne, one, oneAs, prepared, writeOne } from '../queryable';
import { USER_COLUMNS, type UserRow, toUser } from '../rows';

// Every login reads the first, every request whose token version is not cached the second.
const CREDENTIALS = prepared(`SELECT ${USER_COLUMNS}, password_hash, token_version FROM users WHERE email = $1`);
const ACCOUNT = prepared(`SELECT ${USER_COLUMNS}, token_version FROM users WHERE id = $1`);

export type { NewUser, UserPatch } from '@shellgrade/domain';

export class PgUserRepository implements CredentialStore, UserRepository {
  constructor(private readonly pool: Pool) {}

  /** The account and its password hash, for login only. Emails are stored lower-case. */
  async findCredentials(email: string): Promise<(Account & { passwordHash: string }) | null> {
    const row = await one<UserRow & { password_hash: string; token_version: number }>(this.pool, CREDENTIALS, [email.trim().toLowerCase()]);
    return row && { user: toUser(row), passwordHash: row.password_hash, tokenVersion: row.token_version };
  }

  async findAccount(id: number): Promise<Account | null> {
    const row = await one<UserRow & { token_version: number }>(this.pool, ACCOUNT, [id]);
    return row && { user: toUser(row), tokenVersion: row.token_version };
  }

  async upgradePasswordHash(userId: number, from: string, to: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [userId, from, to]);
    return rowCount === 1;
  }

  async findById(id: number): Promise<User | null> {
    return oneAs(this.pool, `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id], toUser);
  }

  async list(opts: { role?: Role; limit: number; offset: number }): Promise<User[]> {
    return allAs(
      this.pool,
      `SELECT ${USER_COLUMNS} FROM users WHERE ($1::text IS NULL OR role = $1) ORDER BY id LIMIT $2 OFFSET $3`,
      [opts.role ?? null, opts.limit, opts.offset],
      toUser,
    );
  }

  async create(u: NewUser): Promise<User> {
    const row = { email: u.email.trim().toLowerCase(), password_hash: u.passwordHash, firstname: u.firstname, lastname: u.lastname, role: u.role };
    return insertOne(this.pool, 'users', row, USER_COLUMNS, toUser, `user ${u.email}`);
  }

  /** A changed email, password or role bumps the token version: older access tokens stop working. */
  async update(id: number, patch: UserPatch): Promise<User | null> {
    return writeOne(
      this.pool,
      `UPDATE users SET email = COALESCE($2, email), password_hash = COALESCE($3, password_hash),
              firstname = COALESCE($4, firstname), lastname = COALESCE($5, lastname), role = COALESCE($6, role),
              token_version = token_version + CASE
                WHEN $3::text IS NOT NULL OR $2::text <> email OR $6::text <> role
                THEN 1 ELSE 0 END
        WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      [id, patch.email?.trim().toLowerCase() ?? null, patch.passwordHash ?? null, patch.firstname ?? null, patch.lastname ?? null, patch.role ?? null],
      toUser,
      `user ${id}`,
    );
  }

  async delete(id: number): Promise<boolean> {
    // Every reference to a user cascades or is set to null: a delete never meets a constraint.
    return deleteById(this.pool, 'users', id, `user ${id}`);
  }
}
