// One round of single runs in a given order, as the findings and the reproduction run them: each
// item once, its run id kept under its key (or its failure, with the error: a failed run does not
// stop the round), the record saved after each, so an interrupted study can still be evaluated.
import { phase } from '../log';

export interface RoundRuns<C> {
  /** Whose round, for the log: "findings", "reproduce". */
  study: string;
  round: number;
  keyOf: (item: C) => string;
  /** One run of the item; its run id is kept. */
  run: (item: C) => Promise<{ meta: { runId: string } }>;
  /** Run ids per key, appended in run order. */
  runs: Record<string, string[]>;
  failed: (key: string, error: string) => void;
  save: () => void;
}

/** Runs `order` as one round; returns the runs attempted. */
export async function runRoundInOrder<C>(order: readonly C[], r: RoundRuns<C>): Promise<number> {
  for (const [i, item] of order.entries()) {
    const key = r.keyOf(item);
    phase(`${r.study} round ${r.round}: ${key} (${i + 1}/${order.length})`);
    try {
      const a = await r.run(item);
      (r.runs[key] ??= []).push(a.meta.runId);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      r.failed(key, error);
      phase(`${r.study}: ${key} failed: ${error}`);
    }
    r.save();
  }
  return order.length;
}
