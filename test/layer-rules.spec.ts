import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/*
 * The hexagon's side rules of .dependency-cruiser.cjs, held to a probe: a throwaway tree with the
 * repository's folder names and one forbidden import each, cruised with the repository's own rules.
 * A rule whose path pattern stops matching (a renamed lib, a typo) turns this red, where
 * `npm run depcruise` would silently pass on the real tree.
 */
const repo = resolve(__dirname, '..');
const depcruise = join(repo, 'node_modules', '.bin', 'depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruiseProbe(files: Record<string, string>): Violation[] {
  const root = mkdtempSync(join(tmpdir(), 'layer-probe-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, dirname(path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    // Only the rules: the repository's options name its tsconfig, which the probe tree has not.
    writeFileSync(join(root, 'rules.cjs'), `module.exports = { forbidden: require(${JSON.stringify(join(repo, '.dependency-cruiser.cjs'))}).forbidden };`);
    const tops = [...new Set(Object.keys(files).map((path) => path.split('/')[0]))];
    let out: string;
    try {
      out = execFileSync(depcruise, ['--config', 'rules.cjs', '--output-type', 'json', ...tops], { cwd: root, encoding: 'utf8' });
    } catch (e) {
      // depcruise exits non-zero when it finds violations; the report is still on stdout.
      out = (e as { stdout: string }).stdout;
    }
    return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const ruleNames = (vs: Violation[]) => vs.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

describe('the hexagon side rules (.dependency-cruiser.cjs)', () => {
  it('refuse a controller that names an outbound adapter, and an adapter that calls back into the edge', () => {
    const violations = cruiseProbe({
      'libs/persistence/src/index.ts': `export const PgThing = 1;\n`,
      'libs/http/src/index.ts': `export const problem = 1;\n`,
      'libs/api/src/probe.controller.ts': `import { PgThing } from '../../persistence/src/index';\nexport const c = PgThing;\n`,
      'libs/broker-probe/src/consumer.ts': `import { problem } from '../../http/src/index';\nexport const b = problem;\n`,
    });
    expect(ruleNames(violations).sort()).toEqual([
      'no-controller-to-controller-or-repository: libs/api/src/probe.controller.ts → libs/persistence/src/index.ts',
      'no-inbound-to-outbound: libs/api/src/probe.controller.ts → libs/persistence/src/index.ts',
      'no-outbound-to-inbound: libs/broker-probe/src/consumer.ts → libs/http/src/index.ts',
    ]);
  });

  it('refuse a controller that holds a driver or token package itself', () => {
    const violations = cruiseProbe({
      'node_modules/jsonwebtoken/package.json': `{ "name": "jsonwebtoken", "main": "index.js" }\n`,
      'node_modules/jsonwebtoken/index.js': `module.exports = {};\n`,
      'libs/api/src/auth/probe.controller.ts': `import jwt from 'jsonwebtoken';\nexport const c = jwt;\n`,
      'libs/api/test/probe.int.ts': `import jwt from 'jsonwebtoken';\nexport const t = jwt;\n`,
    });
    expect(ruleNames(violations)).toEqual(['no-inbound-to-driver: libs/api/src/auth/probe.controller.ts → node_modules/jsonwebtoken/index.js']);
  });

  it('keep the dispatch concerns apart: only admission reaches refusal', () => {
    const violations = cruiseProbe({
      'libs/refusal/src/index.ts': `export const retryAfter = 1;\n`,
      'libs/dispatch/src/index.ts': `export const within = 1;\n`,
      'libs/admission/src/admission.ts': `import { retryAfter } from '../../refusal/src/index';\nexport const a = retryAfter;\n`,
      'libs/admission/src/probe.ts': `import { within } from '../../dispatch/src/index';\nexport const p = within;\n`,
      'libs/event-loop-pressure/src/probe.ts': `import { retryAfter } from '../../refusal/src/index';\nexport const p = retryAfter;\n`,
      'libs/pipeline-filters/src/probe.ts': `import { within } from '../../dispatch/src/index';\nexport const p = within;\n`,
    });
    expect(ruleNames(violations).sort()).toEqual([
      'admission-only-to-refusal: libs/admission/src/probe.ts → libs/dispatch/src/index.ts',
      'dispatch-concerns-apart: libs/event-loop-pressure/src/probe.ts → libs/refusal/src/index.ts',
      'dispatch-concerns-apart: libs/pipeline-filters/src/probe.ts → libs/dispatch/src/index.ts',
    ]);
  });

  it('keep the seed (admin-cli) out of runtime code, and let tests seed', () => {
    const violations = cruiseProbe({
      'libs/admin-cli/seed/src/index.ts': `export const seed = 1;\n`,
      'libs/api/src/probe.controller.ts': `import { seed } from '../../admin-cli/seed/src/index';\nexport const c = seed;\n`,
      'libs/persistence/test/probe.int.ts': `import { seed } from '../../admin-cli/seed/src/index';\nexport const t = seed;\n`,
    });
    expect(ruleNames(violations)).toEqual(['no-runtime-to-tool: libs/api/src/probe.controller.ts → libs/admin-cli/seed/src/index.ts']);
  });

  it('hold a submission to its layers: use cases apart, no dispatch running the sandbox, the sandbox at the bottom, one queue dispatch', () => {
    const violations = cruiseProbe({
      'libs/domain/src/grading-worker.ts': `export const GradingWorker = 1;\n`,
      'libs/domain/src/submission.ts': `import { GradingWorker } from './grading-worker';\nexport const s = GradingWorker;\n`,
      'libs/grading/src/index.ts': `export const SandboxGrader = 1;\n`,
      'libs/dispatch/src/index.ts': `import { SandboxGrader } from '../../grading/src/index';\nexport const within = SandboxGrader;\n`,
      'libs/grading/src/probe.ts': `import { within } from '../../dispatch/src/index';\nexport const p = within;\n`,
      'libs/refusal/src/index.ts': `export const refuseSubmission = 1;\n`,
      'libs/broker-bullmq/src/index.ts': `import { refuseSubmission } from '../../refusal/src/index';\nexport const b = refuseSubmission;\n`,
      // A package's own dist/ is a dependency like any other (bullmq resolves there).
      'node_modules/bullmq/package.json': `{ "name": "bullmq", "main": "dist/cjs/index.js" }\n`,
      'node_modules/bullmq/dist/cjs/index.js': `module.exports = {};\n`,
      'libs/broker-queue/src/index.ts': `import { Queue } from 'bullmq';\nexport const q = Queue;\n`,
      'libs/broker-queue/test/probe.int.ts': `import { b } from '../../broker-bullmq/src/index';\nexport const t = b;\n`,
    });
    expect(ruleNames(violations).sort()).toEqual([
      'submission-dispatch-not-to-grader: libs/dispatch/src/index.ts → libs/grading/src/index.ts',
      'submission-grader-at-the-bottom: libs/grading/src/probe.ts → libs/dispatch/src/index.ts',
      'submission-queue-dispatch-broker-free: libs/broker-queue/src/index.ts → node_modules/bullmq/dist/cjs/index.js',
      'submission-refused-by-the-queue-dispatch: libs/broker-bullmq/src/index.ts → libs/refusal/src/index.ts',
      'submission-use-cases-apart: libs/domain/src/submission.ts → libs/domain/src/grading-worker.ts',
    ]);
  });

  it("keep the researchers' console behind the wiring's console mount, out of every grading process", () => {
    const violations = cruiseProbe({
      'libs/console-server/src/index.ts': `export const serveAppWithConsole = 1;\n`,
      'libs/wiring/src/console-mount.ts': `import { serveAppWithConsole } from '../../console-server/src/index';\nexport const mount = serveAppWithConsole;\n`,
      'libs/wiring/src/adapters.ts': `export const grader = 1;\n`,
      'libs/wiring/src/index.ts': `import { mount } from './console-mount';\nimport { grader } from './adapters';\nexport const w = [mount, grader];\n`,
      // The monolith through the mount: allowed; the gateway around it, the exercise service through the wiring's index: not.
      'services/monolith/src/main.ts': `import { mount } from '../../../libs/wiring/src/console-mount';\nexport const m = mount;\n`,
      'services/gateway/src/main.ts': `import { serveAppWithConsole } from '../../../libs/console-server/src/index';\nexport const g = serveAppWithConsole;\n`,
      'services/exercise/src/main.ts': `import { w } from '../../../libs/wiring/src/index';\nexport const e = w;\n`,
      'libs/api/src/probe.controller.ts': `import { serveAppWithConsole } from '../../console-server/src/index';\nexport const c = serveAppWithConsole;\n`,
      'libs/console-server/test/probe.spec.ts': `import { serveAppWithConsole } from '../src/index';\nexport const t = serveAppWithConsole;\n`,
    });
    expect(ruleNames(violations).sort()).toEqual([
      'console-only-through-the-mount: libs/api/src/probe.controller.ts → libs/console-server/src/index.ts',
      'console-only-through-the-mount: services/gateway/src/main.ts → libs/console-server/src/index.ts',
      'no-console-in-grading-code: libs/api/src/probe.controller.ts → libs/console-server/src/index.ts',
      'no-console-in-grading-code: libs/wiring/src/index.ts → libs/console-server/src/index.ts',
      'no-console-in-grading-code: libs/wiring/src/index.ts → libs/wiring/src/console-mount.ts',
      'no-console-in-grading-code: services/exercise/src/main.ts → libs/console-server/src/index.ts',
      'no-console-in-grading-code: services/exercise/src/main.ts → libs/wiring/src/console-mount.ts',
    ]);
  });

  it('keep libs the ground floor: no library, nor its tests, imports a folder above it', () => {
    const violations = cruiseProbe({
      'infra/src/index.ts': `export const launch = 1;\n`,
      'test/support/client.ts': `export const client = 1;\n`,
      'libs/domain/src/index.ts': `export const PORT = 1;\n`,
      'libs/broker-queue/src/index.ts': `import { launch } from '../../../infra/src/index';\nexport const q = launch;\n`,
      'libs/dispatch/test/support/kit.ts': `import { client } from '../../../../test/support/client';\nexport const k = client;\n`,
      // Another library and the platform are the ground floor too.
      'libs/persistence/src/index.ts': `import { readFileSync } from 'node:fs';\nimport { PORT } from '../../domain/src/index';\nexport const p = [PORT, readFileSync];\n`,
    });
    expect(ruleNames(violations).sort()).toEqual([
      'libs-ground-floor: libs/broker-queue/src/index.ts → infra/src/index.ts',
      'libs-ground-floor: libs/dispatch/test/support/kit.ts → test/support/client.ts',
      'no-runtime-to-tool: libs/broker-queue/src/index.ts → infra/src/index.ts',
    ]);
  });

  it('keep the tools in their tiers: infra < traces < benchmarks < the system tests, k6 under the harness', () => {
    const violations = cruiseProbe({
      'test/support/stack.ts': `export const up = 1;\n`,
      'k6/lib/steps.js': `import { run } from '../../benchmarks/src/harness';\nexport const step = run;\n`,
      // Downward: the harness over k6's modules.
      'benchmarks/src/suites.ts': `import { step } from '../../k6/lib/steps';\nexport const s = step;\n`,
      'benchmarks/src/harness.ts': `export const run = 1;\n`,
      'traces/src/index.ts': `export const attribute = 1;\n`,
      'infra/src/launcher.ts': `import { attribute } from '../../traces/src/index';\nexport const l = attribute;\n`,
      'traces/test/hop.e2e.ts': `import { up } from '../../test/support/stack';\nexport const t = up;\n`,
      'benchmarks/test/cli.spec.ts': `import { up } from '../../test/support/stack';\nexport const t = up;\n`,
      // Downward: the harness over the trace tools, the system tests over the harness.
      'benchmarks/src/faults.ts': `import { attribute } from '../../traces/src/index';\nexport const f = attribute;\n`,
      'test/reproduce.e2e.ts': `import { run } from '../benchmarks/src/harness';\nexport const r = run;\n`,
    });
    expect(ruleNames(violations).sort()).toEqual([
      'tool-tiers-benchmarks: benchmarks/test/cli.spec.ts → test/support/stack.ts',
      'tool-tiers-infra: infra/src/launcher.ts → traces/src/index.ts',
      'tool-tiers-k6: k6/lib/steps.js → benchmarks/src/harness.ts',
      'tool-tiers-traces: traces/test/hop.e2e.ts → test/support/stack.ts',
    ]);
  });

  it('let a controller reach the domain, and tests import anything', () => {
    const violations = cruiseProbe({
      'libs/domain/src/index.ts': `export const PORT = Symbol('port');\n`,
      'libs/persistence/src/index.ts': `export const PgThing = 1;\n`,
      'libs/api/src/ok.controller.ts': `import { PORT } from '../../domain/src/index';\nexport const c = PORT;\n`,
      'libs/api/test/probe.int.ts': `import { PgThing } from '../../persistence/src/index';\nexport const t = PgThing;\n`,
    });
    expect(ruleNames(violations)).toEqual([]);
  });
});
