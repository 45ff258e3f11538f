// The fault table: every fault the suite can inject, by name `<kind>:<argument>` (a role of the
// variant's processes or a native server). A kind plans one step on the running variant
// (guard.ts applies it); a name that does not apply to the variant says why.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../paths';
import { HOPS } from '@shellgrade/variant';
import type { VariantStatus } from '../stack';
import { startCpuHogs } from './cpu-starve';
import type { FaultStep } from './guard';
import { addToxic, FAULT_TOXIC, type RoutedHop } from './toxiproxy';
import type { UndoAction } from './undo';

export interface FaultTarget {
  status: VariantStatus;
  /** What `variant up` takes to bring this variant back (preset name or spec file). */
  upTarget: string;
  /** The hop the variant runs routed through the fault proxy (route.ts), if any. */
  routed?: RoutedHop;
  /** The fault window (s): a helper the fault starts ends by itself some time after it. */
  holdS?: number;
}

export interface FaultKind {
  kind: string;
  /** hop: one internal hop, routed through the fault proxy for the run (route.ts). */
  argument: 'role' | 'server' | 'hop';
  description: string;
  plan(name: string, arg: string, t: FaultTarget): FaultStep;
}

const servers = (...args: string[]) => promisify(execFile)('bash', [join(repoRoot(), 'infra', 'bin', 'servers'), ...args], { cwd: repoRoot() }).then(() => undefined);

function replicas(t: FaultTarget, role: string): { name: string; pid: number }[] {
  const found = t.status.processes.filter((p) => p.role === role && p.pid).map((p) => ({ name: p.name, pid: p.pid! }));
  if (found.length === 0) throw new FaultNotApplicable(`variant ${t.status.variant} has no running ${role} process (roles: ${[...new Set(t.status.processes.map((p) => p.role))].join(', ')})`);
  return found;
}

function server(t: FaultTarget, name: string): string {
  if (!t.status.servers.some((s) => s.name === name)) throw new FaultNotApplicable(`variant ${t.status.variant} does not use ${name} (servers: ${t.status.servers.map((s) => s.name).join(', ')})`);
  return name;
}

export class FaultNotApplicable extends Error {}

const awaitRestart = (t: FaultTarget, ps: { name: string; pid: number }[]): UndoAction => ({
  kind: 'await-restart',
  variant: t.status.variant ?? '',
  target: t.upTarget,
  names: ps.map((p) => p.name),
  killedPids: ps.map((p) => p.pid),
});

function routed(t: FaultTarget, hop: string): RoutedHop {
  if (t.routed?.hop !== hop) throw new FaultNotApplicable(`the ${hop} hop of ${t.status.variant} is not routed through the fault proxy`);
  return t.routed;
}

/** Added latency of the latency fault on its one hop, ms. */
export const HOP_LATENCY_MS = 100;

const named = (ps: { name: string; pid: number }[]) => ps.map((p) => `${p.name} (pid ${p.pid})`).join(', ');

export const FAULT_KINDS: FaultKind[] = [
  {
    kind: 'kill-one',
    argument: 'role',
    description: 'kill -9 of one replica of the role (pm2 restarts it)',
    plan: (name, role, t) => {
      const [p] = replicas(t, role);
      return { fault: name, target: named([p]), undo: awaitRestart(t, [p]), inject: async () => void process.kill(p.pid, 'SIGKILL') };
    },
  },
  {
    kind: 'kill-all',
    argument: 'role',
    description: 'kill -9 of every replica of the role at once (pm2 restarts them)',
    plan: (name, role, t) => {
      const ps = replicas(t, role);
      return { fault: name, target: named(ps), undo: awaitRestart(t, ps), inject: async () => ps.forEach((p) => process.kill(p.pid, 'SIGKILL')) };
    },
  },
  {
    kind: 'sigstop-one',
    argument: 'role',
    description: 'SIGSTOP of one replica of the role for the fault window, then SIGCONT (a hang, not a crash)',
    plan: (name, role, t) => {
      const [p] = replicas(t, role);
      return { fault: name, target: named([p]), undo: { kind: 'continue', pid: p.pid }, inject: async () => void process.kill(p.pid, 'SIGSTOP') };
    },
  },
  {
    kind: 'restart',
    argument: 'server',
    description: 'restart of the native server (infra/bin/servers restart: stop, start, wait until healthy)',
    plan: (name, s, t) => ({ fault: name, target: server(t, s), undo: { kind: 'servers-up', names: [s] }, inject: () => servers('restart', s) }),
  },
  {
    kind: 'outage',
    argument: 'server',
    description: 'the native server down for the fault window (servers down), then up again',
    plan: (name, s, t) => ({ fault: name, target: server(t, s), undo: { kind: 'servers-up', names: [s] }, inject: () => servers('down', s) }),
  },
  {
    kind: 'cpu-starve',
    argument: 'role',
    description: "stress-ng CPU hogs, one per CPU one replica of the role may use, in its cpu/cpuset groups (the grading side: exercise, monolith)",
    plan: (name, role, t) => {
      const [p] = replicas(t, role);
      const tag = randomUUID();
      return {
        fault: name,
        target: named([p]),
        undo: { kind: 'kill-tagged', tag },
        inject: async () => void startCpuHogs(p.pid, (t.holdS ?? 60) + 30, tag),
      };
    },
  },
  {
    kind: 'latency',
    argument: 'hop',
    description: `+${HOP_LATENCY_MS} ms on every answer of one internal hop (exercise, leftover: the gateway's calls; postgres, rabbitmq, redis: the services' connections), through toxiproxy`,
    plan: (name, hop, t) => {
      const r = routed(t, hop);
      return {
        fault: name,
        target: `${r.hop} hop (${r.listen} → ${r.upstream})`,
        undo: { kind: 'toxic-remove', api: r.api, proxy: r.proxy, toxic: FAULT_TOXIC },
        inject: () => addToxic(r.proxy, { type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: HOP_LATENCY_MS, jitter: 0 } }, r.api),
      };
    },
  },
];

export function faultKind(name: string): { kind: FaultKind; arg: string } {
  const [kindName, arg] = name.split(':');
  const kind = FAULT_KINDS.find((k) => k.kind === kindName);
  if (!kind || !arg) throw new Error(`unknown fault "${name}": <kind>:<role|server|hop> with kind one of ${FAULT_KINDS.map((k) => k.kind).join(', ')}`);
  return { kind, arg };
}

/** The step of fault `name` on the running variant (throws FaultNotApplicable when it has no such target). */
export function planFault(name: string, t: FaultTarget): FaultStep {
  const { kind, arg } = faultKind(name);
  return kind.plan(name, arg, t);
}

/** The roles a CPU starvation is aimed at: where gradings run. */
const GRADING_ROLES = ['monolith', 'exercise'];
const ROLES = ['monolith', 'gateway', 'leftover', 'exercise'];
const SERVERS = ['postgres', 'rabbitmq', 'redis', 'minio'];

/**
 * `--faults all`: every kind on every role, server and hop it can name; run-faults skips, with
 * the reason, each one the variant has no target for (no such role, server or HTTP hop).
 */
export function allFaults(): string[] {
  const args = (k: FaultKind) => (k.argument === 'hop' ? [...HOPS] : k.argument === 'server' ? SERVERS : k.kind === 'cpu-starve' ? GRADING_ROLES : ROLES);
  return FAULT_KINDS.flatMap((k) => args(k).map((a) => `${k.kind}:${a}`));
}

export function faultListText(): string {
  return FAULT_KINDS.map((k) => `${k.kind}:<${k.argument}>  ${k.description}`).join('\n');
}
