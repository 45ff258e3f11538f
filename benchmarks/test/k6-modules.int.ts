// The k6-runtime modules (k6/lib) are tested by k6 itself; this runs that test file with the
// project's k6 binary (built by infra if missing) and fails on any failed check.
import { k6Path } from '../src/k6-tool';
import { run } from '../src/shell';

jest.setTimeout(300_000);

it('k6/test/modules.test.js passes every check', async () => {
  const k6 = await k6Path();
  const r = await run(k6, ['run', '--quiet', '--no-color', 'k6/test/modules.test.js'], { allowFail: true });
  const out = r.stdout + r.stderr;
  expect(out).toMatch(/checks_failed\.*: 0\.00%/);
  expect(r.code).toBe(0);
});
