// The system under test, driven through the project's own CLIs: the launcher
// (`npm run variant`) and the database tool (`npm run db`).
import { z } from 'zod';
import { phase } from './log';
import { run, sleep, type CommandResult } from './shell';
import type { ProcessGroup } from './resource-sampler';

/**
 * The CLIs run from dist/, which a concurrent `npm run build` may be replacing: a failure is
 * retried a few times before it is reported.
 */
async function npmRun(args: string[], echo: boolean, attempts = 3): Promise<CommandResult> {
  for (let i = 1; ; i++) {
    try {
      return await run('npm', ['run', '--silent', ...args], { echo });
    } catch (err) {
      if (i >= attempts) throw err;
      phase(`npm run ${args.join(' ')} failed (attempt ${i}/${attempts}); retrying in 10 s`);
      await sleep(10_000);
    }
  }
}

const processSchema = z.looseObject({
  name: z.string(),
  role: z.string().optional(),
  pid: z.number().nullable().optional(),
  port: z.number().nullable().optional(),
  status: z.string().optional(),
  restarts: z.number().optional(),
});
const serverSchema = z.looseObject({ name: z.string(), pid: z.number().nullable().optional() });

export const variantStatusSchema = z.looseObject({
  variant: z.string().nullable().optional(),
  entry: z.string().nullable().optional(),
  processes: z.array(processSchema).default([]),
  servers: z.array(serverSchema).default([]),
});
export type VariantStatus = z.infer<typeof variantStatusSchema>;

/** Parses `variant status --json` output; npm may print banner lines before the JSON. */
export function parseStatus(stdout: string): VariantStatus {
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`variant status printed no JSON: ${stdout.slice(0, 300)}`);
  return variantStatusSchema.parse(JSON.parse(stdout.slice(start)));
}

/** `flags`: launcher options such as `--cpu-prof <dir>`. */
export async function variantUp(variantOrPath: string, flags: string[] = []): Promise<void> {
  await npmRun(['variant', '--', 'up', variantOrPath, ...flags], true);
}

export async function variantDown(): Promise<void> {
  await run('npm', ['run', '--silent', 'variant', '--', 'down'], { echo: true, allowFail: true });
}

export async function variantStatus(): Promise<VariantStatus> {
  const r = await npmRun(['variant', '--', 'status', '--json'], false);
  return parseStatus(r.stdout);
}

/**
 * Seeds the students with passwords hashed at the variant's auth.kdfCost: a stored hash keeps the
 * cost it was made with, so a login costs what the spec says only if the seed used it too.
 */
export async function seedStudents(students: number, csvPath: string, kdfCost: number): Promise<void> {
  await npmRun(['db', '--', 'seed', '--students', String(students), '--csv', csvPath, '--kdf-cost', String(kdfCost)], true);
}

export async function resetProductions(): Promise<void> {
  await npmRun(['db', '--', 'reset'], true);
}

/** The URL k6 targets: the launcher's entry, else the default naked-mon entry. */
export function entryUrl(status: VariantStatus): string {
  return status.entry ?? 'http://127.0.0.1:3000';
}

/** What the resource sampler follows: every process of the variant and every native server it uses (each with its descendants). */
export function processGroupsOf(status: VariantStatus): ProcessGroup[] {
  const groups: ProcessGroup[] = [];
  for (const p of status.processes) if (p.pid) groups.push({ name: p.name, role: p.role ?? 'service', pid: p.pid });
  for (const s of status.servers) if (s.pid) groups.push({ name: s.name, role: 'server', pid: s.pid });
  return groups;
}
