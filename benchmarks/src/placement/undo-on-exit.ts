// A change to the machine that must be undone however the harness ends (the cpusets of a
// placement, the scale model's quotas): on exit, and on SIGINT, SIGTERM or SIGHUP — undone
// synchronously, then the signal re-raised so it does what it would have done.
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export class UndoOnExit {
  private readonly onExit = (): void => this.undo();
  private readonly onSignal = (sig: NodeJS.Signals): void => {
    this.undo();
    // Our listener replaced the default action: take it back and re-raise.
    this.detach();
    process.kill(process.pid, sig);
  };

  /** `undo` must be safe to call twice (the owner's own undo calls detach, then does the work once). */
  constructor(private readonly undo: () => void) {
    process.once('exit', this.onExit);
    for (const s of SIGNALS) process.once(s, this.onSignal);
  }

  /** No longer undone on exit or signal (the owner undid it already). */
  detach(): void {
    process.removeListener('exit', this.onExit);
    for (const s of SIGNALS) process.removeListener(s, this.onSignal);
  }
}
