/**
 * A console launch (GET/POST /ops/launches, GET /ops/launches/<id>[/events]): recorded and served
 * by the server (libs/http ops-launch-record.ts, ops-launch.ts), read by the web app. One
 * declaration for both sides; the server's record schema is checked against it.
 */
import type { LaunchProgress } from './launch-progress';

/** A launch as recorded beside the results (run/console/launches/<run-id>.json) and as served. */
export interface LaunchRecord {
  id: string;
  plan: 'run';
  preset: string;
  profile: string;
  /** The harness's arguments (`run --variant <preset> --profile <profile> --run-id <id>`). */
  args: string[];
  /** The command a shell user would type for it. */
  command: string;
  /** The harness's pid (and process group); null when the spawn gave none. */
  pid: number | null;
  /** The harness's log file (its stdout and stderr). */
  log: string;
  startedAt: string;
  endedAt: string | null;
  exitCode: number | null;
  state: 'running' | 'finished' | 'failed' | 'cancelled';
  /** Who cancelled the run, when and from where (the audit); null when it was not cancelled. */
  cancelled: { at: string; by: string; from: string } | null;
}

/** One server-sent event of GET /ops/launches/<id>/events. */
export interface LaunchEvent {
  launch: LaunchRecord;
  elapsedS: number;
  progress: LaunchProgress;
}

/** GET /ops/launches: the launches, newest first, the profiles a launch may name, and the launch holding the machine (null: free). */
export interface LaunchList {
  launches: LaunchRecord[];
  profiles: string[];
  busy: string | null;
}
