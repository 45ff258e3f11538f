/**
 * A console launch as recorded beside the results (run/console/launches/<run-id>.json): what was
 * asked, the command a shell user would type for it, the harness's pid and log, how it ended —
 * and, for a cancelled run, who cancelled it and when (the audit).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchRecordSchema, type LaunchRecord } from '@shellgrade/console-contract';

export class LaunchRecords {
  readonly dir: string;
  constructor(consoleDir: string) {
    this.dir = join(consoleDir, 'launches');
  }

  logFile(id: string): string {
    return join(this.dir, `${id}.log`);
  }

  get(id: string): LaunchRecord | null {
    const file = join(this.dir, `${id}.json`);
    if (!existsSync(file)) return null;
    const parsed = launchRecordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  }

  /** Written whole to a temporary file and renamed: a reader never sees half a record. */
  put(r: LaunchRecord): void {
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, `${r.id}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(r, null, 2));
    renameSync(`${file}.tmp`, file);
  }

  update(id: string, change: Partial<LaunchRecord>): LaunchRecord | null {
    const r = this.get(id);
    if (!r) return null;
    const next = { ...r, ...change };
    this.put(next);
    return next;
  }

  /** Newest first. */
  list(): LaunchRecord[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => this.get(f.slice(0, -'.json'.length)))
      .filter((r): r is LaunchRecord => r !== null)
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }
}
