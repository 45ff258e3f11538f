/**
 * When an argon2id setting is "at least as strong as" the secure level of a kdfCost, so a login
 * knows whether a matched hash needs replacing (password.ts `needsRehash`).
 *
 * OWASP's password-storage cheat sheet lists five argon2id settings of equal strength (p = 1):
 * 46 MiB × 1 pass, 19 MiB × 2, 12 MiB × 3, 9 MiB × 4, 7 MiB × 5 — less memory bought back
 * with more passes. Those five rows are the level of kdfCost 14; each step above 14 doubles
 * every row's memory (so the rows stay equal to one another, and a step costs an attacker
 * twice the memory whichever row a hash was made at).
 *
 * The rule: a setting is at least as strong as a level when it spends at least the memory AND
 * at least the passes of one of the level's rows — more of either only makes a guess dearer.
 * Anything else counts as weaker, including settings between the rows (40 MiB × 1 pass) or
 * below the smallest memory (4 MiB × 10 passes): the cheat sheet vouches for no trade beyond
 * its table, so we do not extrapolate one. Consequences: a stored hash of any row is never
 * replaced by another row of the same level (no churn when the default row changes), and a
 * replaced hash is always weaker than the level it is replaced at (never a downgrade).
 * The parallelism does not enter: m is the memory of all lanes together and every pass still
 * fills all of it; p only lets the lanes run at once.
 */

/** One argon2id setting: memory in KiB (`m=` of the PHC string) and passes (`t=`). */
export interface Argon2Setting {
  memoryKiB: number;
  timeCost: number;
}

/** OWASP password-storage cheat sheet, argon2id, p = 1: five settings of equal strength. */
export const OWASP_ARGON2ID_ROWS: readonly Argon2Setting[] = [
  { memoryKiB: 46 * 1024, timeCost: 1 },
  { memoryKiB: 19 * 1024, timeCost: 2 },
  { memoryKiB: 12 * 1024, timeCost: 3 },
  { memoryKiB: 9 * 1024, timeCost: 4 },
  { memoryKiB: 7 * 1024, timeCost: 5 },
];

/** The kdfCost whose level is OWASP's table as written. */
export const OWASP_LEVEL_COST = 14;

/** The level of a secure kdfCost (≥ 14): every OWASP row with its memory doubled per step above 14. */
export function argon2LevelOf(cost: number): readonly Argon2Setting[] {
  if (!Number.isInteger(cost) || cost < OWASP_LEVEL_COST) throw new RangeError(`no argon2id level below kdfCost ${OWASP_LEVEL_COST}, got ${cost}`);
  const factor = 2 ** (cost - OWASP_LEVEL_COST);
  return OWASP_ARGON2ID_ROWS.map((row) => ({ memoryKiB: row.memoryKiB * factor, timeCost: row.timeCost }));
}

const positiveInteger = (x: number) => Number.isSafeInteger(x) && x >= 1;

/** True when `setting` spends at least the memory and the passes of one row of `level`; a malformed setting is never strong. */
export function atLeastAsStrong(setting: Argon2Setting, level: readonly Argon2Setting[]): boolean {
  if (!positiveInteger(setting.memoryKiB) || !positiveInteger(setting.timeCost)) return false;
  return level.some((row) => setting.memoryKiB >= row.memoryKiB && setting.timeCost >= row.timeCost);
}
