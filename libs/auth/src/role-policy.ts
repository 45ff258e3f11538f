import type { Role } from '@shellgrade/domain';

/** True when no roles are required or the user's role is among them. */
export function roleAllowed(role: Role, required: readonly Role[] | undefined): boolean {
  return !required || required.length === 0 || required.includes(role);
}

/** Staff (teachers and admins) see everyone's data; students only their own. */
export const isStaff = (role: Role): boolean => role === 'admin' || role === 'teacher';
