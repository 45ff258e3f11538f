/**
 * Where a service's JavaScript time goes, from the V8 CPU profiles `variant up --cpu-prof` has
 * every process write (.cpuprofile: the format Chrome DevTools and speedscope open). Self time
 * per function, from the samples and their time deltas, grouped into the components a
 * grading service is made of. V8 samples the main thread only: work on libuv's thread pool (scrypt password
 * hashing, zlib, fs) and in child processes (the sandboxed grader) is not in these profiles —
 * the per-process cgroup CPU of the run counts it.
 *
 * A sample is charged to the component of its nearest frame outside Node's core, walking up from
 * the leaf: a socket write under the CORS middleware is framework time, a failed PEM parse under
 * jsonwebtoken is auth time. Charged to the leaf alone, half of a service's time was just "node"
 * and the cause was invisible (it was jsonwebtoken re-parsing its key on every token).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export type Component = 'idle' | 'gc' | 'runtime' | 'startup' | 'tracing' | 'framework' | 'database' | 'auth' | 'grading' | 'app' | 'libraries' | 'node';

/** First match wins: most specific first. */
const RULES: [Component, (url: string, fn: string) => boolean][] = [
  ['idle', (_u, fn) => fn === '(idle)'],
  ['gc', (_u, fn) => fn === '(garbage collector)'],
  ['runtime', (u, fn) => u === '' && /^\(.*\)$/.test(fn)],
  // Loading and compiling modules: a process's start, not its requests (it dominates short runs).
  ['startup', (u, fn) => u.startsWith('node:internal/modules/') || u.startsWith('node:internal/bootstrap/') || ['wrapSafe', 'compileSourceTextModule', 'compileForInternalLoader', 'internalModuleStat'].includes(fn)],
  ['tracing', (u) => u.includes('/node_modules/@opentelemetry/') || u.includes('/libs/telemetry/')],
  ['database', (u) => /\/node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(u) || u.includes('/libs/persistence/')],
  ['auth', (u) => /\/node_modules\/(jsonwebtoken|jws|jwa)\//.test(u) || u.includes('/libs/auth/') || u.includes('/libs/api/src/auth/')],
  ['grading', (u) => u.includes('/libs/grading/') || u.includes('/libs/dispatch/') || /\/libs\/(admission|event-loop-pressure|refusal|pipeline-filters)\//.test(u) || u.includes('/libs/broker-') || u.includes('node:child_process') || u.includes('node:internal/child_process')],
  ['framework', (u) => /\/node_modules\/(@nestjs|express|router|body-parser|cookie-parser|cors|vary|on-finished|finalhandler|path-to-regexp|qs|type-is|accepts|content-type|send|multer|busboy|raw-body|http-proxy|http-proxy-middleware|@grpc|rxjs|reflect-metadata)\//.test(u)],
  ['app', (u) => /\/(libs|services)\//.test(u) && !u.includes('/node_modules/')],
  ['libraries', (u) => u.includes('/node_modules/')],
  ['node', () => true],
];

export function componentOf(url: string, functionName: string): Component {
  return RULES.find(([, match]) => match(url, functionName))![0];
}

export interface FunctionTime {
  function: string;
  /** url:line, the repository prefix cut. */
  where: string;
  component: Component;
  /** The nearest frame outside Node's core that led here (function and url:line), when the function is Node's own. */
  via: string;
  ms: number;
}

export interface ProfileSummary {
  process: string;
  files: number;
  /** Wall time the profiles span. */
  spanMs: number;
  /** Sampled time not idle. */
  busyMs: number;
  byComponent: Partial<Record<Component, number>>;
  top: FunctionTime[];
}

function shortUrl(url: string): string {
  const cut = url.replace(/^file:\/\//, '');
  const i = cut.search(/\/(node_modules|libs|services|dist)\//);
  return i >= 0 ? cut.slice(i + 1) : cut;
}

/** Self time per function of one or more profiles of a process (a restarted process writes several). */
export function summarizeProfiles(processName: string, profiles: CpuProfile[], topN = 15): ProfileSummary {
  const byFunction = new Map<string, FunctionTime>();
  const byComponent: Partial<Record<Component, number>> = {};
  let spanMs = 0;
  for (const p of profiles) {
    spanMs += (p.endTime - p.startTime) / 1000;
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    const charged = chargedFrames(p);
    p.samples.forEach((id, i) => {
      const node = nodes.get(id);
      const ms = (p.timeDeltas[i] ?? 0) / 1000;
      if (!node || ms <= 0) return;
      const { functionName, url, lineNumber } = node.callFrame;
      const { component, owner } = charged.get(id)!;
      byComponent[component] = (byComponent[component] ?? 0) + ms;
      const via = owner && owner !== node.callFrame ? `${owner.functionName || '(anonymous)'} ${shortUrl(owner.url)}:${owner.lineNumber + 1}` : '';
      const key = `${functionName}@${url}:${lineNumber} via ${via}`;
      const entry = byFunction.get(key) ?? { function: functionName || '(anonymous)', where: url ? `${shortUrl(url)}:${lineNumber + 1}` : '', component, via, ms: 0 };
      entry.ms += ms;
      byFunction.set(key, entry);
    });
  }
  const busyMs = Object.entries(byComponent).filter(([c]) => c !== 'idle').reduce((s, [, ms]) => s + (ms ?? 0), 0);
  // Start-up (module loading) is once per process, not per request: its total is in the table, not in the top list.
  const top = [...byFunction.values()].filter((f) => f.component !== 'idle' && f.component !== 'startup').sort((a, b) => b.ms - a.ms).slice(0, topN);
  return { process: processName, files: profiles.length, spanMs, busyMs, byComponent, top };
}

type CallFrame = CpuProfile['nodes'][number]['callFrame'];

/** Node's own code (and V8's pseudo-frames): what a sample is not charged to while a caller of ours or of a library is above it. */
const isCore = (f: CallFrame) => f.url === '' || f.url.startsWith('node:');
/** V8's pseudo-frames: their samples are their own whatever is above them. */
const PSEUDO = new Set<Component>(['idle', 'gc', 'runtime']);
const isModuleLoading = (f: CallFrame) => f.url.startsWith('node:internal/modules/') || f.url.startsWith('node:internal/bootstrap/');

type Charge = { component: Component; owner: CallFrame | null };

/** One frame's charge, given the charge of the frame that called it. */
function chargeOf(f: CallFrame, above: Charge): Charge {
  const own = componentOf(f.url, f.functionName);
  if (PSEUDO.has(own)) return { component: own, owner: null };
  if (above.component === 'startup' || isModuleLoading(f)) return { component: 'startup', owner: null };
  if (!isCore(f)) return { component: own, owner: f };
  return above.owner ? above : { component: own, owner: null };
}

/**
 * Per node of the call tree: the component its samples are charged to, and the frame that decided
 * it. Pseudo-frames (idle, gc, program) keep their own; anything under module loading is start-up;
 * otherwise the nearest frame outside Node's core decides, and a sample with none is Node's.
 */
function chargedFrames(p: CpuProfile): Map<number, Charge> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const out = new Map<number, Charge>();
  const resolve = (id: number): Charge => {
    const known = out.get(id);
    if (known) return known;
    const f = byId.get(id)!.callFrame;
    const parent = parentOf.get(id);
    const above: Charge = parent === undefined ? { component: 'node', owner: null } : resolve(parent);
    const charged = chargeOf(f, above);
    out.set(id, charged);
    return charged;
  };
  for (const n of p.nodes) resolve(n.id);
  return out;
}

/** Every process folder under `dir` (variant up --cpu-prof writes dir/<process>/*.cpuprofile). */
export function readProfileDir(dir: string): ProfileSummary[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const files = readdirSync(join(dir, d.name)).filter((f) => f.endsWith('.cpuprofile'));
      return summarizeProfiles(d.name, files.map((f) => JSON.parse(readFileSync(join(dir, d.name, f), 'utf8')) as CpuProfile));
    })
    .filter((s) => s.files > 0)
    .sort((a, b) => a.process.localeCompare(b.process));
}

const COMPONENTS: Component[] = ['framework', 'auth', 'database', 'tracing', 'grading', 'app', 'libraries', 'node', 'gc', 'runtime', 'startup'];
const f1 = (x: number) => x.toFixed(1);

/** One table of components (ms and per iteration when the iterations are known), then each process's top functions. */
export function profilesMarkdown(summaries: ProfileSummary[], iterations: number | null): string {
  const perIt = (ms: number) => (iterations ? ` (${f1(ms / iterations)})` : '');
  return [
    `### JavaScript CPU by component (V8 CPU profiles, main thread only)`,
    '',
    `ms of sampled self time, each sample charged to its nearest caller outside Node's core${iterations ? `; in brackets per iteration started (${iterations}, warm-up included in the profiles)` : ''}. Not here: libuv's thread pool (scrypt password hashing, zlib) and child processes (the sandboxed grader): see the run's per-process CPU.`,
    '',
    `| process | busy | ${COMPONENTS.join(' | ')} |`,
    `|---|---:|${COMPONENTS.map(() => '---:').join('|')}|`,
    ...summaries.map((s) => `| ${s.process} | ${f1(s.busyMs)}${perIt(s.busyMs)} | ${COMPONENTS.map((c) => `${f1(s.byComponent[c] ?? 0)}${perIt(s.byComponent[c] ?? 0)}`).join(' | ')} |`),
    '',
    ...summaries.flatMap((s) => [
      `#### ${s.process}: top functions by self time, start-up left out (${f1(s.busyMs)} ms busy of ${f1(s.spanMs)} ms profiled)`,
      '',
      '| function | where | called from (nearest caller outside Node) | component | ms | share of busy |',
      '|---|---|---|---|---:|---:|',
      ...s.top.map((t) => `| ${t.function} | ${t.where} | ${t.via} | ${t.component} | ${f1(t.ms)} | ${s.busyMs > 0 ? f1((100 * t.ms) / s.busyMs) : '0.0'} % |`),
      '',
    ]),
  ].join('\n');
}
