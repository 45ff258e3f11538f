#!/usr/bin/env node
/**
 * npm run variant -- <command>
 *   up <variant|file.yaml> [--timeout s] [--skip-servers]   switch to a variant and wait until healthy
 *       [--listen addr] [--force-exposed]                   entry on addr (default loopback); beyond loopback,
 *                                                           isolation none / blocking exec need --force-exposed
 *       [--keep-cache]                                      cache: redis starts cold (its keys deleted) unless kept
 *       [--cpu-prof dir]                                    V8 CPU profiles of every service into dir/<process>/ (written at exit)
 *       [--hop-via hop=host:port]                           one internal hop (exercise|leftover|postgres|rabbitmq|redis) through a fault proxy
 *   down [--all]                                            stop the variant (--all: the native servers too)
 *   status [--json] [--probe]                               processes of the active variant
 *   logs [name] [--lines n] [--follow]                      pm2 logs of the variant's processes
 *   serve [variant]                                         up, follow the logs in the foreground, down on Ctrl-C
 *   list                                                    presets in infra/variants
 *   show <variant>                                          the validated spec and its processes, as JSON
 *   compose <variant> [--out dir] [--force-exposed]         docker-compose.yml + Dockerfile
 *   k8s <variant> [--out dir] [--namespace ns]              Kubernetes manifests, and a k6-operator TestRun of scenario R
 *       [--k6-parallelism n] [--k6-profile p]               (runner pods, k6/profiles.json profile)
 *       [--force-exposed]                                   (containers listen beyond loopback: the exposure rule applies)
 * Human-readable progress goes to stderr; stdout carries only the requested output.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import {
  entryUrl,
  listVariants,
  loadVariant,
  refuseUnsafeExposure,
  variantProcesses,
  variantServers,
  VariantSpecError,
  parseHopRoute,
  type VariantSpec,
} from '@shellgrade/variant';
import { writeCompose } from '../deploy/compose';
import { writeKubernetes } from '../deploy/kubernetes';
import { PM2_HOME, REPO_ROOT } from '../paths';
import { down, status, up, type VariantStatus } from './launcher';
import * as pm2 from './pm2';

// Libraries (pm2) print progress with console.log: keep stdout for our output.
console.log = (...args: unknown[]) => console.error(...args);
console.info = console.log;

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

function table(st: VariantStatus): string {
  if (!st.variant) return 'no variant is up (npm run variant -- up <variant>)';
  const rows = st.processes.map((p) => [
    p.name, p.role, String(p.port), String(p.pid), p.status, String(p.restarts),
    p.healthy === undefined ? '' : p.healthy ? 'yes' : 'NO', `${(p.memory / 2 ** 20).toFixed(0)} MiB`,
  ]);
  const header = ['NAME', 'ROLE', 'PORT', 'PID', 'STATUS', 'RESTARTS', 'HEALTHY', 'MEMORY'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const servers = st.servers.map((s) => `${s.name}:${s.port} ${s.status}`).join(', ');
  return [`variant ${st.variant}   entry ${st.entry}`, fmt(header), ...rows.map(fmt), `servers: ${servers}`].join('\n');
}

/** `pm2 logs` for the variant's apps (a regex over their names). */
function pm2Logs(args: string[]) {
  return spawn(process.execPath, [require.resolve('pm2/bin/pm2'), 'logs', '/^sg-(monolith|gateway|leftover|exercise|haproxy)/', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, PM2_HOME },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function serve(variant: string): Promise<void> {
  const st = await up(variant);
  out(table(st));
  out(`serving ${st.variant} at ${st.entry}; Ctrl-C stops it`);
  const logs = pm2Logs(['--lines', '5']);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n[variant] ${signal}: stopping ${st.variant}\n`);
    logs.kill('SIGTERM');
    await down();
    pm2.disconnect();
    process.exit(0);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void stop(sig));
  await new Promise<void>((resolve) => logs.once('exit', () => resolve()));
  await stop('log stream ended');
}

/** Containers listen on every interface: the same exposure rule as `up --listen`. */
function exposable(spec: VariantSpec, force: boolean): VariantSpec {
  refuseUnsafeExposure(spec, '0.0.0.0', { force, forceFlag: '--force-exposed' });
  return spec;
}

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new VariantSpecError(`${flag} expects a positive integer, got ${text}`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      probe: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      follow: { type: 'boolean', short: 'f', default: false },
      lines: { type: 'string', default: '50' },
      timeout: { type: 'string' },
      'skip-servers': { type: 'boolean', default: false },
      listen: { type: 'string' },
      'force-exposed': { type: 'boolean', default: false },
      'keep-cache': { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'hop-via': { type: 'string' },
      out: { type: 'string' },
      namespace: { type: 'string' },
      'k6-parallelism': { type: 'string' },
      'k6-profile': { type: 'string' },
    },
  });
  const [command, arg] = positionals;
  const need = (what: string) => {
    if (!arg) throw new VariantSpecError(`${command} needs a ${what} (see \`npm run variant -- list\`)`);
    return arg;
  };
  switch (command) {
    case 'up': {
      const timeoutS = values.timeout ? Number(values.timeout) : undefined;
      const st = await up(need('variant'), {
        timeoutS,
        skipServers: values['skip-servers'],
        listen: values.listen,
        forceExposed: values['force-exposed'],
        keepCache: values['keep-cache'],
        cpuProfileDir: values['cpu-prof'],
        ...(values['hop-via'] ? { hop: parseHopRoute(values['hop-via']) } : {}),
      });
      out(values.json ? JSON.stringify(st, null, 2) : `${table(st)}\nentry: ${st.entry}`);
      return 0;
    }
    case 'down':
      await down({ all: values.all });
      return 0;
    case 'status': {
      const st = await status({ probe: values.probe || !values.json });
      out(values.json ? JSON.stringify(st, null, 2) : table(st));
      return 0;
    }
    case 'logs': {
      const args = ['--lines', values.lines ?? '50', ...(values.follow ? [] : ['--nostream'])];
      const child = arg
        ? spawn(process.execPath, [require.resolve('pm2/bin/pm2'), 'logs', arg, ...args], { env: { ...process.env, PM2_HOME }, stdio: 'inherit' })
        : pm2Logs(args);
      return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 0)));
    }
    case 'serve':
      await serve(arg ?? 'dev');
      return 0;
    case 'list':
      out(listVariants().join('\n'));
      return 0;
    case 'show': {
      const spec = loadVariant(need('variant'));
      out(JSON.stringify({ spec, entry: entryUrl(spec), servers: variantServers(spec), processes: variantProcesses(spec) }, null, 2));
      return 0;
    }
    case 'compose':
      out(`wrote ${writeCompose(exposable(loadVariant(need('variant')), values['force-exposed']), values.out).join(', ')}`);
      return 0;
    case 'k8s':
      exposable(loadVariant(need('variant')), values['force-exposed']);
      out(
        `wrote ${writeKubernetes(loadVariant(need('variant')), {
          outDir: values.out,
          namespace: values.namespace,
          load: { parallelism: values['k6-parallelism'] ? positiveInt(values['k6-parallelism'], '--k6-parallelism') : undefined, profile: values['k6-profile'] },
        }).join(', ')}`,
      );
      return 0;
    default:
      process.stderr.write(`usage: npm run variant -- <up|down|status|logs|serve|list|show|compose|k8s> ...\n`);
      return command ? 2 : 0;
  }
}

main(process.argv.slice(2))
  .then((code) => {
    if (process.argv[2] !== 'serve') {
      pm2.disconnect();
      process.exitCode = code;
    }
  })
  .catch((err: unknown) => {
    process.stderr.write(`[variant] error: ${err instanceof Error ? err.message : String(err)}\n`);
    pm2.disconnect();
    process.exitCode = 1;
  });
