// e2e-variants: msa-aggregation-traced
/**
 * Paper 003's gateway aggregation on the real application: msa-aggregation-1-2, traced,
 * through the launcher with the real services, grader and Jaeger. The dashboard the gateway
 * assembles equals the page a client builds from the three separate calls, shows the production
 * the client was told about, and its fan-out is one trace tree under the gateway's request.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadSamples } from '@shellgrade/grading';
import { loadVariant } from '@shellgrade/variant';
import { mergeDashboard } from '@shellgrade/gateway';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { JaegerClient } from '../traces/src/jaeger/client';
import { BrowserSession, spaSubmission } from './support/http-client';
import { seed, variantUp } from './support/stack';
import type { SeededUser } from './support/scenario-r';

jest.setTimeout(600_000);

const paper = loadSamples('paper-scripts');
let entry: string;
let users: SeededUser[];

/** msa-aggregation-1-2 with tracing on, as a spec file of its own (presets stay untraced). */
function tracedSpecFile(): string {
  const { name: _name, paper: _paper, entry: _entry, ...spec } = loadVariant('msa-aggregation-1-2');
  const file = join(mkdtempSync(join(tmpdir(), 'sg-aggregation-')), 'msa-aggregation-traced.yaml');
  writeFileSync(file, stringify({ ...spec, description: 'msa-aggregation-1-2 traced (grader exec blocking)', tracing: { enabled: true, sampleRatio: 1 } }));
  return file;
}

beforeAll(async () => {
  entry = (await variantUp(tracedSpecFile())).entry;
  users = await seed(4);
});
// A traced spec file from a temp folder must not stay up for the next test file to find.

async function loggedIn(u: SeededUser): Promise<BrowserSession> {
  const s = new BrowserSession(entry);
  expect((await s.request('POST', '/api/user/login', { email: u.email, password: u.password })).status).toBe(200);
  return s;
}

describe('gateway aggregation (msa-aggregation-1-2)', () => {
  it('answers the dashboard the client would build from three calls, with the production the client was told about', async () => {
    const u = users[0]!;
    const s = await loggedIn(u);
    const submitted = await s.request('POST', '/api/exercise-production', spaSubmission(u.exerciseId, u.statementId, paper.good));
    expect(submitted.status).toBe(201);
    const epId = (submitted.body as { ep_id: number }).ep_id;

    const dashboard = await s.request('GET', '/api/dashboard');
    expect(dashboard.status).toBe(200);
    const exercises = (dashboard.body as ReturnType<typeof mergeDashboard>).sessions.flatMap((x) => x.exercises);
    expect(exercises.find((e) => e.ps_id === u.statementId)?.last_production).toMatchObject({ ep_id: epId, status: 'graded', grade: 100 });

    // The baseline: the same page built by the client, one call after another.
    const [sessions, statements, productions] = [
      await s.request('GET', '/api/business-sessions?limit=1000'),
      await s.request('GET', '/api/student-statements?limit=1000'),
      await s.request('GET', '/api/exercise-productions?limit=1000'),
    ];
    expect(dashboard.body).toEqual(mergeDashboard(sessions.body as never, statements.body as never, productions.body as never));
  });

  it('shows a student only their own productions, and refuses a request without login (401 problem+json)', async () => {
    const [a, b] = [users[1]!, users[2]!];
    const sa = await loggedIn(a);
    const mine = await sa.request('POST', '/api/exercise-production', spaSubmission(a.exerciseId, a.statementId, paper.good));
    expect(mine.status).toBe(201);
    const sb = await loggedIn(b);
    const theirs = (await sb.request('GET', '/api/dashboard')).body as ReturnType<typeof mergeDashboard>;
    const seen = theirs.sessions.flatMap((x) => x.exercises).map((e) => e.last_production?.ep_id);
    expect(seen).not.toContain((mine.body as { ep_id: number }).ep_id);

    const anonymous = await fetch(`${entry}/api/dashboard`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });

  it('traces the fan-out as one tree: the gateway request with its three reads, each answered by its service', async () => {
    const u = users[3]!;
    const s = await loggedIn(u);
    const traceId = randomBytes(16).toString('hex');
    const res = await s.request('GET', '/api/dashboard', undefined, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
    expect(res.status).toBe(200);

    const jaeger = new JaegerClient('http://127.0.0.1:16686');
    // Every process exports its spans on its own schedule: wait for the gateway's (its request and
    // its three reads, exported last as they end last) as well as the three services'.
    const served = (t: Awaited<ReturnType<JaegerClient['trace']>>) =>
      ['GET /api/business-session', 'GET /api/student-statement', 'GET /api/exercise-production'].every((name) => t?.spans.some((x) => x.name.startsWith(name) && x.kind === 'server' && x.service !== 'shellgrade-gateway')) &&
      Boolean(t?.spans.some((x) => x.service === 'shellgrade-gateway' && x.kind === 'server')) &&
      (t?.spans.filter((x) => x.service === 'shellgrade-gateway' && x.kind === 'client').length ?? 0) >= 3;
    let trace = await jaeger.trace(traceId);
    for (let polls = 0; !served(trace) && polls < 60; polls++) {
      await new Promise((r) => setTimeout(r, 500));
      trace = await jaeger.trace(traceId);
    }
    expect(served(trace)).toBe(true);
    const spans = trace!.spans;
    const byId = new Map(spans.map((x) => [x.spanId, x]));
    // One tree: every span's parent is in the trace, except the root, whose parent is the client's.
    const roots = spans.filter((x) => x.parentId === undefined || !byId.has(x.parentId));
    expect(roots.map((x) => [x.service, x.kind])).toEqual([['shellgrade-gateway', 'server']]);
    const root = roots[0];
    const reads = spans.filter((x) => x.service === 'shellgrade-gateway' && x.kind === 'client');
    expect(reads).toHaveLength(3);
    // The three reads hang under the gateway's request and overlap in time (made in parallel).
    for (const r of reads) expect(ancestors(r, byId)).toContain(root!.spanId);
    const latestStart = Math.max(...reads.map((r) => r.startUs));
    const earliestEnd = Math.min(...reads.map((r) => r.endUs));
    expect(latestStart).toBeLessThan(earliestEnd);
  });
});

function ancestors(span: { parentId?: string }, byId: Map<string, { spanId: string; parentId?: string }>): string[] {
  const out: string[] = [];
  for (let p = span.parentId; p !== undefined && byId.has(p); p = byId.get(p)!.parentId) out.push(p);
  return out;
}
