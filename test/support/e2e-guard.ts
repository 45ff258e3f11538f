/**
 * Runs before every e2e file (jest.config.js): a file must declare the variant(s) it needs
 * (`// e2e-variants: …`, test/support/variant-sequencer.js), and when it is over, the variant left
 * up must be one it declared — a file that tested whatever an earlier file left running, or that
 * brought up a variant it does not declare, fails loudly here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetch as undiciFetch } from 'undici';
import { declaredVariants } from './variant-sequencer';

// e2e files fetch through the npm undici, whose pooled connections live in this test context:
// after a variant switch, stack.ts freshConnections() can drop them (Node's own fetch keeps its
// pool outside Jest's context, out of reach).
globalThis.fetch = undiciFetch as unknown as typeof fetch;

const REPO = join(__dirname, '..', '..');
const file = expect.getState().testPath ?? '';
const declared = declaredVariants(readFileSync(file, 'utf8'));

beforeAll(() => {
  if (declared === undefined) throw new Error(`${file} declares no variant: add a header line "// e2e-variants: <preset>, …" (or "none")`);
});

afterAll(() => {
  if (!declared || declared.length === 0) return;
  const out = execFileSync('npm', ['run', '--silent', 'variant', '--', 'status', '--json'], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  const { variant } = JSON.parse(out.slice(out.indexOf('{'))) as { variant: string | null };
  if (variant && !declared.includes(variant)) {
    throw new Error(`${file} left ${variant} up but declares ${declared.join(', ')}: it tested a variant it does not name`);
  }
}, 60_000);
