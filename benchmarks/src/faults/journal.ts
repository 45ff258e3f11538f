// The undo journal: before a fault takes effect its undo is written to <run folder>/faults-undo.json,
// and removed once performed. A harness that died in between (SIGKILL, a crash, the machine's
// OOM killer) leaves the file behind; the next `bench faults` replays it before anything else.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeUndo, performUndo, type UndoAction } from './undo';

export const JOURNAL_FILE = 'faults-undo.json';

export interface JournalEntry {
  id: string;
  fault: string;
  target: string;
  undo: UndoAction;
  /** Epoch ms the entry was written (just before the inject). */
  atMs: number;
}

export class UndoJournal {
  readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, JOURNAL_FILE);
  }

  pending(): JournalEntry[] {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as JournalEntry[]) : [];
  }

  add(entry: JournalEntry): void {
    this.write([...this.pending(), entry]);
  }

  remove(id: string): void {
    this.write(this.pending().filter((e) => e.id !== id));
  }

  /** Written whole then renamed: a crash mid-write leaves the previous journal, never half of one. */
  private write(entries: JournalEntry[]): void {
    if (entries.length === 0) {
      rmSync(this.file, { force: true });
      return;
    }
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(entries, null, 2));
    renameSync(tmp, this.file);
  }
}

export interface ReplayOutcome {
  entry: JournalEntry;
  error: string | null;
}

/** Performs every pending undo of one journal, oldest last-in first; an entry that failed stays. */
export function replayJournal(journal: UndoJournal): ReplayOutcome[] {
  const outcomes: ReplayOutcome[] = [];
  for (const entry of journal.pending().reverse()) {
    try {
      performUndo(entry.undo);
      journal.remove(entry.id);
      outcomes.push({ entry, error: null });
    } catch (err) {
      outcomes.push({ entry, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return outcomes;
}

/** Every journal left in a run folder under `resultsDir`, replayed. */
export function replayLeftJournals(resultsDir: string, log: (line: string) => void): ReplayOutcome[] {
  if (!existsSync(resultsDir)) return [];
  const outcomes: ReplayOutcome[] = [];
  for (const name of readdirSync(resultsDir)) {
    const journal = new UndoJournal(join(resultsDir, name));
    if (!existsSync(journal.file)) continue;
    for (const o of replayJournal(journal)) {
      log(`undo journal ${journal.file}: ${o.entry.fault} on ${o.entry.target}: ${describeUndo(o.entry.undo)} ${o.error ? `FAILED (${o.error})` : 'done'}`);
      outcomes.push(o);
    }
  }
  return outcomes;
}
