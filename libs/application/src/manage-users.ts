/**
 * Accounts: admins manage them; staff read them; a user reads itself and changes its own names,
 * and its own password with the current one. A new password ends the user's other login sessions.
 */
import { Inject, Injectable } from '@nestjs/common';
import { type AuthenticatedUser, listOwner, LOGIN_SESSIONS, type LoginSessions, mayRead, SECRET_HASHING, type SecretHashing } from '@shellgrade/auth';
import { forbidden, notFound, type Role, type User, USER_REPOSITORY, type UserPatch, type UserRepository } from '@shellgrade/domain';
import type { Actor, Page } from './actor';

export interface UserFields {
  email: string;
  /** In clear: hashed before it is stored. */
  password: string;
  firstname: string;
  lastname: string;
  role: Role;
}

/** What an account change asks: the fields, and the current password when a user changes its own. */
export type UserChange = Partial<UserFields> & { currentPassword?: string };

@Injectable()
export class ManageUsers {
  constructor(
    @Inject(USER_REPOSITORY) private readonly users: UserRepository,
    @Inject(LOGIN_SESSIONS) private readonly logins: LoginSessions,
    @Inject(SECRET_HASHING) private readonly secrets: SecretHashing,
  ) {}

  /** Staff: every account (by role if asked); a student: itself. */
  async list(me: Actor, query: Page & { role?: Role }): Promise<User[]> {
    if (listOwner(me, undefined) !== undefined) return [await this.get(me.id)];
    return this.users.list(query);
  }

  async findOne(me: Actor, id: number): Promise<User> {
    if (!mayRead(me, id)) throw notFound('user', id);
    return this.get(id);
  }

  async create(fields: UserFields): Promise<User> {
    const { password, ...rest } = fields;
    return this.users.create({ ...rest, passwordHash: await this.secrets.hashPassword(password) });
  }

  /**
   * Changes an account. `client` is where the request came from: a wrong current password counts
   * as a failed login of that client. The caller's own session keeps working through a reissued
   * access token (its token version moved): the inbound side sets it (`ownSessionMoved`).
   */
  async update(me: AuthenticatedUser, id: number, change: UserChange, client: string): Promise<{ user: User; ownSessionMoved: boolean }> {
    if (me.role !== 'admin') {
      if (id !== me.id) throw notFound('user', id);
      if (change.role !== undefined || change.email !== undefined) throw forbidden('only an admin may change role or email');
    }
    const { password, currentPassword, ...rest } = change;
    if (password !== undefined && id === me.id && !(currentPassword !== undefined && (await this.logins.checkPassword(me.email, currentPassword, client)))) {
      throw forbidden('changing your password needs your current password (current_password), and it did not match');
    }
    const patch: UserPatch = { ...rest, ...(password ? { passwordHash: await this.secrets.hashPassword(password) } : {}) };
    const user = await this.users.update(id, patch);
    if (!user) throw notFound('user', id);
    if (password !== undefined) await this.logins.endOtherSessions(id, id === me.id ? me.sid : undefined);
    return { user, ownSessionMoved: id === me.id };
  }

  async remove(me: Actor, id: number): Promise<void> {
    if (id === me.id) throw forbidden('an admin cannot delete its own account');
    if (!(await this.users.delete(id))) throw notFound('user', id);
  }

  private async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw notFound('user', id);
    return user;
  }
}
