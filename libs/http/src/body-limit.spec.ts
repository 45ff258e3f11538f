import { bodyLimitFor } from './body-limit';

/** The SPA's JSON body for an archive of n bytes, each byte the widest value (255). */
const worstSpaBody = (n: number) =>
  JSON.stringify({ ex_id: 2147483647, ps_id: 2147483647, production_data: { name: 'answer.tgz', size: n, data: Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), 255])) } });

describe('bodyLimitFor', () => {
  it.each([1000, 12_345, 100_000])('fits the largest acceptable archive in its costliest encoding (%i bytes)', (n) => {
    expect(Buffer.byteLength(worstSpaBody(n))).toBeLessThanOrEqual(bodyLimitFor(n));
  });

  it('stays within ~15× the archive limit (a much larger body is refused unread)', () => {
    expect(bodyLimitFor(1024 * 1024)).toBeLessThan(15 * 1024 * 1024);
  });
});
