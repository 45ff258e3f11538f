// The system under test, driven through the project's own launcher and database tool, in
// this process: the same code as `npm run variant` / `npm run db`, without a CLI run (npm, Node,
// pm2) per call — several per benchmark run.
import { z } from 'zod';
import { runDbCommand } from '@shellgrade/admin-cli';
import { launchVariant, stopVariant, variantRunsAlready, variantStatus as launcherStatus, type UpOptions } from '@shellgrade/launcher';
import { phase } from './log';
import type { ProcessGroup } from './resource-sampler';

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

/** `variant up` (a no-op when the variant is up and healthy); `options`: e.g. CPU profiles, a routed hop. */
export async function variantUp(variantOrPath: string, options: UpOptions = {}): Promise<void> {
  await launchVariant(variantOrPath, options);
}

/** Whether exactly this spec (a run's overrides included) is already up and healthy: then `variantUp` would change nothing. */
export function variantRunning(variantOrPath: string, options: UpOptions = {}): Promise<boolean> {
  return variantRunsAlready(variantOrPath, options);
}

/** `variant down`; a failure is reported, not thrown (the caller is tidying up). */
export async function variantDown(): Promise<void> {
  await stopVariant().catch((err: unknown) => phase(`variant down failed: ${err instanceof Error ? err.message : String(err)}`));
}

export async function variantStatus(): Promise<VariantStatus> {
  return variantStatusSchema.parse(await launcherStatus());
}

/**
 * Seeds the students with passwords hashed at the variant's auth.kdfCost: a stored hash keeps the
 * cost it was made with, so a login costs what the spec says only if the seed used it too.
 */
export async function seedStudents(students: number, csvPath: string, kdfCost: number): Promise<void> {
  await runDbCommand(['seed', '--students', String(students), '--csv', csvPath, '--kdf-cost', String(kdfCost)], process.env, echo);
}

export async function resetProductions(): Promise<void> {
  await runDbCommand(['reset'], process.env, echo);
}

/** What the db tool prints goes where a child's echoed output went: stderr, beside the harness's log. */
function echo(line: string): void {
  process.stderr.write(`${line}\n`);
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
