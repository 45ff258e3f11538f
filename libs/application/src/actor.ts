/** Who asks: the use cases decide with the caller's id and role (and, for its own account, its email and login session). */
import type { AuthenticatedUser } from '@shellgrade/auth';

export type Actor = Pick<AuthenticatedUser, 'id' | 'role'>;

/** A page of a list, as every list endpoint takes it. */
export interface Page {
  limit: number;
  offset: number;
}
