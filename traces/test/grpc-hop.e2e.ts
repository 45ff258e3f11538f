// e2e-variants: msa-grpc-traced
/**
 * With transport grpc, one trace spans the gRPC hop. msa-grpc-1-1 with tracing
 * on (real launcher, real Jaeger): a request with a k6-style traceparent to the gateway yields
 * one tree — gateway HTTP server span → Edge.Call client → Edge.Call server in leftover → the
 * leftover's controller span — with no span whose parent is missing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { entryUrl, loadVariant } from '@shellgrade/variant';
import { JaegerClient } from '../src/jaeger/client';
import type { Trace } from '@shellgrade/trace-model';
import { Agent, setGlobalDispatcher } from 'undici';

jest.setTimeout(300_000);

const REPO = resolve(__dirname, '../..');

/** Through the launcher a user runs; the variant's servers (Jaeger included) come up with it. */
function variantUp(specFile: string): { entry: string } {
  execFileSync('npm', ['run', '--silent', 'variant', '--', 'up', specFile], { cwd: REPO, timeout: 240_000, stdio: ['ignore', 'inherit', 'inherit'] });
  // The launcher restarted the processes: fetch's pooled sockets to their ports are dead (as
  // test/support/stack.ts's freshConnections; traces is below the system tests and imports none of them).
  setGlobalDispatcher(new Agent());
  return { entry: entryUrl(loadVariant('msa-grpc-1-1')) };
}


const EDGE_CALL = 'grpc.shellgrade.edge.v1.Edge/Call';

/** msa-grpc-1-1 with tracing on, as a spec file of its own (presets stay untraced). */
function tracedSpecFile(): string {
  const { name: _name, paper: _paper, entry: _entry, ...spec } = loadVariant('msa-grpc-1-1');
  const file = join(mkdtempSync(join(tmpdir(), 'sg-grpc-trace-')), 'msa-grpc-traced.yaml');
  writeFileSync(file, stringify({ ...spec, description: 'msa-grpc-1-1 traced (grader exec blocking)', tracing: { enabled: true, sampleRatio: 1 } }));
  return file;
}

/** Polls Jaeger until `done` holds (spans arrive in export batches); fails after `maxPolls`, 500 ms apart. */
async function waitForTrace(jaeger: JaegerClient, traceId: string, done: (t: Trace) => boolean, maxPolls = 60): Promise<Trace> {
  let t: Trace | undefined;
  for (let poll = 1; poll <= maxPolls; poll++) {
    t = await jaeger.trace(traceId);
    if (t && done(t)) return t;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`trace ${traceId} incomplete in Jaeger after ${maxPolls} polls: ${JSON.stringify(t?.spans.map((s) => `${s.service} ${s.name}`))}`);
}

it('one trace spans gateway → gRPC Edge.Call → leftover', async () => {
  const { entry } = await variantUp(tracedSpecFile());
  const traceId = randomBytes(16).toString('hex');
  const clientSpan = randomBytes(8).toString('hex');
  const res = await fetch(`${entry}/api/exercises`, { headers: { traceparent: `00-${traceId}-${clientSpan}-01` } });
  expect(res.status).toBeLessThan(500);

  // Each process exports in its own batches: wait for the last span of each (the root is the gateway's server span).
  const trace = await waitForTrace(
    new JaegerClient('http://127.0.0.1:16686'),
    traceId,
    (t) =>
      t.spans.some((s) => s.service === 'shellgrade-leftover' && s.name === 'GET /api/exercises') &&
      t.spans.some((s) => s.service === 'shellgrade-gateway' && s.kind === 'server'),
  );
  const byId = new Map(trace.spans.map((s) => [s.spanId, s]));
  const edgeClient = trace.spans.find((s) => s.service === 'shellgrade-gateway' && s.name === EDGE_CALL && s.kind === 'client');
  const edgeServer = trace.spans.find((s) => s.service === 'shellgrade-leftover' && s.name === EDGE_CALL && s.kind === 'server');
  expect(trace.spans.map((s) => `${s.service} ${s.kind} ${s.name}`)).toEqual(
    expect.arrayContaining([`shellgrade-gateway client ${EDGE_CALL}`, `shellgrade-leftover server ${EDGE_CALL}`]),
  );
  expect(edgeServer?.parentId).toBe(edgeClient!.spanId);
  // One tree: every span's parent is in the trace, except the gateway's root (its parent is the client's span).
  const orphans = trace.spans.filter((s) => s.parentId !== undefined && !byId.has(s.parentId));
  expect(orphans.map((s) => [s.service, s.kind, s.parentId])).toEqual([['shellgrade-gateway', 'server', clientSpan]]);
});

it('a JSON body crosses the traced gRPC hop intact (the tracer must not mangle relayed headers)', async () => {
  const entry = entryUrl(loadVariant('msa-grpc-1-1'));
  const res = await fetch(`${entry}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@shellgrade.test', password: 'not-the-password' }),
  });
  // 400 "body: expected object" when content-type got lost on the way; 401 when the login was judged.
  expect(res.status).toBe(401);
});
