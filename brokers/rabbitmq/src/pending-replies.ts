/** Sync requests waiting for their reply, by correlation id; each one resolves once. */
export class PendingReplies {
  private readonly waiting = new Map<string, { resolve: (replied: boolean) => void; timer: NodeJS.Timeout }>();

  /** Resolves true when the reply arrives, false when `timeoutMs` passes first. */
  expect(correlationId: string, timeoutMs: number): { done: Promise<boolean>; cancel: () => void } {
    let cancel = () => undefined as void;
    const done = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.settle(correlationId, false), timeoutMs);
      this.waiting.set(correlationId, { resolve, timer });
      cancel = () => this.settle(correlationId, false);
    });
    return { done, cancel };
  }

  /** Called for every reply; unknown ids (late replies after a timeout) are ignored. */
  settle(correlationId: string, replied = true): void {
    const entry = this.waiting.get(correlationId);
    if (!entry) return;
    this.waiting.delete(correlationId);
    clearTimeout(entry.timer);
    entry.resolve(replied);
  }

  /** Releases every waiter (shutdown): they answer with the production as it stands. */
  releaseAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, false);
  }

  get size(): number {
    return this.waiting.size;
  }
}
