/**
 * Runs before every e2e file (jest.config.js): a file must declare the variant(s) it needs
 * (`// e2e-variants: …`, test/support/variant-sequencer.js), and when it is over, the variant left
 * up must be one it declared — a file that tested whatever an earlier file left running, or that
 * brought up a variant it does not declare, fails loudly here.
 */
import { existsSync, readFileSync } from 'node:fs';
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

// The launcher's record of the variant it brought up last (run/variant.json, infra/src/launcher/state.ts),
// the one `variant status` reports: read as a file, not through `npm run variant -- status` (which
// also lists pm2's processes: seconds per file, unused here).
const STATE_FILE = join(REPO, 'run', 'variant.json');

afterAll(() => {
  if (!declared || declared.length === 0) return;
  const variant = existsSync(STATE_FILE) ? (JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { variant: string }).variant : null;
  if (variant && !declared.includes(variant)) {
    throw new Error(`${file} left ${variant} up but declares ${declared.join(', ')}: it tested a variant it does not name`);
  }
});
