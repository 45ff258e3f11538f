// The k6-runtime modules (k6/lib) are tested by k6 itself; this runs that test file with the
// project's k6 binary (built by infra if missing) and fails on any failed check.
import { k6Path } from '../src/k6-tool';
import { run } from '../src/shell';

jest.setTimeout(300_000);

/**
 * Every check of k6/test/modules.test.js (add one there, count it here). Pinned because an
 * exception in the file ends k6's iteration without failing a check: the checks after it
 * would silently not run and k6 would still exit 0.
 */
const CHECKS = 44;

it(`k6/test/modules.test.js runs all ${CHECKS} checks and passes every one`, async () => {
  const k6 = await k6Path();
  // `--address ''`: no k6 REST API, whose fixed port (6565) another k6 file running beside this one would hold.
  const r = await run(k6, ['run', '--quiet', '--no-color', '--address', '', 'k6/test/modules.test.js'], { allowFail: true });
  const out = r.stdout + r.stderr;
  expect(out).toMatch(/checks_failed\.*: 0\.00%/);
  expect(out).toMatch(new RegExp(`checks_succeeded\\.*: 100\\.00% ${CHECKS} out of ${CHECKS}\\b`));
  expect(r.code).toBe(0);
});
