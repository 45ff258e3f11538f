/** The console's launches as GET /ops/launches and the events of /ops/launches/<id>/events carry them (the console's contract). */
import type { LaunchEvent, LaunchRecord } from '@shellgrade/console-contract';

export type { LaunchEvent, LaunchRecord as Launch };

export const causesText = (causes: Record<string, number>): string =>
  Object.entries(causes)
    .map(([cause, n]) => `${cause} × ${n}`)
    .join(', ') || '—';

export const elapsedText = (s: number): string => `${Math.floor(s / 60)} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
