/** The console's launches as GET /ops/launches and the events of /ops/launches/<id>/events carry them. */
import type { LaunchProgress } from '@shellgrade/console-contract';

export interface Launch {
  id: string;
  plan: 'run';
  preset: string;
  profile: string;
  command: string;
  startedAt: string;
  endedAt: string | null;
  exitCode: number | null;
  state: 'running' | 'finished' | 'failed' | 'cancelled';
  cancelled: { at: string; by: string; from: string } | null;
}

export interface LaunchEvent {
  launch: Launch;
  elapsedS: number;
  progress: LaunchProgress;
}

export const causesText = (causes: Record<string, number>): string =>
  Object.entries(causes)
    .map(([cause, n]) => `${cause} × ${n}`)
    .join(', ') || '—';

export const elapsedText = (s: number): string => `${Math.floor(s / 60)} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
