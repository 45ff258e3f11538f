/**
 * The one ownership policy: a student sees and acts on only
 * its own rows, staff on everyone's; teachers change only what they authored, admins anything.
 * "Not yours" is always answered as "does not exist" (404), so ids cannot be probed.
 */
import { notFound } from '@shellgrade/domain';
import { isStaff } from './role-policy';
import type { AuthenticatedUser } from './jwt-tokens';

type Actor = Pick<AuthenticatedUser, 'id' | 'role'>;

/** True when `me` may see a row owned by `ownerId`. */
export const mayRead = (me: Actor, ownerId: number | null): boolean => isStaff(me.role) || ownerId === me.id;

/** True when `me` may change a row authored by `authorId` (teachers: their own; admins: all). */
export const mayChange = (me: Actor, authorId: number | null): boolean => me.role === 'admin' || authorId === me.id;

/** Throws not-found unless `me` may read the row; hands the row back for chaining. */
export function readable<T>(me: Actor, row: T | null, ownerOf: (row: T) => number | null, what: string, id: unknown): T {
  if (!row || !mayRead(me, ownerOf(row))) throw notFound(what, id);
  return row;
}

/** Throws not-found unless `me` may change the row. */
export function changeable<T>(me: Actor, row: T | null, authorOf: (row: T) => number | null, what: string, id: unknown): T {
  if (!row || !mayChange(me, authorOf(row))) throw notFound(what, id);
  return row;
}

/** The owner a list is restricted to: the caller for a student, whatever staff asked for otherwise. */
export const listOwner = (me: Actor, requested: number | undefined): number | undefined => (isStaff(me.role) ? requested : me.id);
