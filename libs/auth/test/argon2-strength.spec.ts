import { argon2LevelOf, atLeastAsStrong, OWASP_ARGON2ID_ROWS, type Argon2Setting } from '../src/argon2-strength';

const MiB = 1024;
const at = (memoryMiB: number, timeCost: number): Argon2Setting => ({ memoryKiB: memoryMiB * MiB, timeCost });
const level14 = argon2LevelOf(14);

describe('argon2LevelOf: the OWASP table, its memory doubled per kdfCost step above 14', () => {
  it('is the cheat sheet as written at 14', () => {
    expect(level14).toEqual([at(46, 1), at(19, 2), at(12, 3), at(9, 4), at(7, 5)]);
    expect(OWASP_ARGON2ID_ROWS).toEqual(level14);
  });

  it('doubles every row per step, the passes unchanged', () => {
    expect(argon2LevelOf(16)).toEqual([at(184, 1), at(76, 2), at(48, 3), at(36, 4), at(28, 5)]);
  });

  it.each([13, 1, 14.5, Number.NaN])('has no level at %p (scrypt costs, or not a cost)', (cost) => {
    expect(() => argon2LevelOf(cost)).toThrow(RangeError);
  });
});

describe('atLeastAsStrong: at least the memory and the passes of one row of the level', () => {
  it.each(OWASP_ARGON2ID_ROWS.map((r) => [r.memoryKiB / MiB, r.timeCost]))('every OWASP row (%p MiB × %p) is at the level of 14, none of 15', (m, t) => {
    expect(atLeastAsStrong(at(m, t), level14)).toBe(true);
    expect(atLeastAsStrong(at(m, t), argon2LevelOf(15))).toBe(false);
  });

  it.each([
    [64, 1, 'more memory than the 46 MiB row'],
    [19, 3, 'more passes than its row'],
    [7, 9, 'the smallest memory, more passes'],
    [512, 8, 'far above every row'],
    [14, 5, 'the 7 MiB × 5 row of kdfCost 15 (an upgraded hash)'],
  ])('stronger: %p MiB × %p (%s)', (m, t) => {
    expect(atLeastAsStrong(at(m, t), level14)).toBe(true);
  });

  it.each([
    [45, 1, 'just under the one-pass row'],
    [18, 2, 'just under the two-pass row'],
    [11, 3, 'between rows: neither 12 MiB × 3 nor 9 MiB × 4'],
    [6, 5, 'under the smallest memory'],
    [4, 10, 'below every row however many passes (no trade beyond the table)'],
    [1, 1, 'the bare minimum'],
  ])('weaker: %p MiB × %p (%s)', (m, t) => {
    expect(atLeastAsStrong(at(m, t), level14)).toBe(false);
  });

  it.each<[string, Argon2Setting]>([
    ['zero memory', { memoryKiB: 0, timeCost: 5 }],
    ['zero passes', { memoryKiB: 64 * MiB, timeCost: 0 }],
    ['negative memory', { memoryKiB: -7 * MiB, timeCost: 5 }],
    ['NaN memory', { memoryKiB: Number.NaN, timeCost: 5 }],
    ['infinite passes', { memoryKiB: 64 * MiB, timeCost: Number.POSITIVE_INFINITY }],
    ['fractional passes', { memoryKiB: 64 * MiB, timeCost: 4.5 }],
  ])('malformed (%s) is never strong', (_what, setting) => {
    expect(atLeastAsStrong(setting, level14)).toBe(false);
  });
});
