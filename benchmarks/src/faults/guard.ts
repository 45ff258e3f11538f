// The runner's one rule: an injected fault is always undone — after its window, on an error, on
// SIGINT/SIGTERM (handlers below) and on a crash of the harness ('exit' handler; a SIGKILL leaves
// the journal, replayed by the next start: journal.ts).
import { randomUUID } from 'node:crypto';
import { sleep } from '../shell';
import type { UndoJournal } from './journal';
import { describeUndo, performUndo, performUndoAsync, type UndoAction } from './undo';

/** One planned fault on one target: how to inject it, and its undo as data. */
export interface FaultStep {
  fault: string;
  /** What is hit, named: "sg-exercise-1 (pid 1234)", "postgres". */
  target: string;
  undo: UndoAction;
  inject(): Promise<void>;
}

export interface AppliedFault {
  fault: string;
  target: string;
  undo: string;
  /** Epoch ms: the inject began, the undo returned. */
  injectedAtMs: number;
  undoneAtMs: number;
}

interface Active {
  journal: UndoJournal;
  id: string;
  undo: UndoAction;
}

const active = new Map<string, Active>();
let armed = false;

/** Undoes every fault in effect, synchronously; what fails stays in its journal for the next start. */
function undoAllNow(): void {
  for (const a of [...active.values()].reverse()) {
    try {
      performUndo(a.undo);
      a.journal.remove(a.id);
    } catch (err) {
      process.stderr.write(`fault undo failed (${describeUndo(a.undo)}), left in ${a.journal.file}: ${String(err)}\n`);
    }
    active.delete(a.id);
  }
}

function arm(): void {
  if (armed) return;
  armed = true;
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    process.on(sig, () => {
      process.stderr.write(`${sig}: undoing ${active.size} fault(s) in effect before exiting\n`);
      undoAllNow();
      process.exit(code);
    });
  }
  // An uncaught exception or process.exit() anywhere: 'exit' still runs synchronous code.
  process.on('exit', undoAllNow);
}

/** An undo journaled and armed (signals, exit) until `perform` runs it. */
export interface GuardedUndo {
  perform(): Promise<void>;
}

/** Journals `undo` and arms the handlers: from now on it runs whatever happens (also the route of a hop, route.ts). */
export function guardUndo(journal: UndoJournal, fault: string, target: string, undo: UndoAction): GuardedUndo {
  arm();
  const id = randomUUID();
  journal.add({ id, fault, target, undo, atMs: Date.now() });
  active.set(id, { journal, id, undo });
  return {
    perform: async () => {
      if (!active.has(id)) return;
      await performUndoAsync(undo);
      active.delete(id);
      journal.remove(id);
    },
  };
}

/**
 * inject → hold for `holdMs` → undo, with the undo journaled before the inject and performed
 * whatever happens; `hold` is injectable so a test can hold until an event instead of a duration.
 */
export async function applyFault(step: FaultStep, journal: UndoJournal, holdMs: number, hold: (ms: number) => Promise<void> = sleep): Promise<AppliedFault> {
  const guarded = guardUndo(journal, step.fault, step.target, step.undo);
  // The fault starts with its inject (a restart stops the server at once, then waits until it is healthy).
  const injectedAtMs = Date.now();
  try {
    await step.inject();
    await hold(holdMs);
  } finally {
    await guarded.perform();
  }
  return { fault: step.fault, target: step.target, undo: describeUndo(step.undo), injectedAtMs, undoneAtMs: Date.now() };
}
