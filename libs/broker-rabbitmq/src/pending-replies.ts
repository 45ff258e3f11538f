/**
 * Sync requests waiting for their reply, by correlation id; each one resolves once. Kept apart
 * from the transport that feeds it (rabbitmq-transport.ts) because its rules stand alone and are
 * tested alone: a reply settles a waiter once, a late one is dropped, a timeout answers false.
 * Direct reply-to lives on one channel: after a reconnection the replies addressed to the
 * old channel are dropped by the broker, so the waiters left from before it fall back to
 * polling their production until it is final (or their timeout passes).
 */
interface Waiter {
  productionId: number;
  resolve: (replied: boolean) => void;
  timer: NodeJS.Timeout;
  polling?: NodeJS.Timeout;
}

export class PendingReplies {
  private readonly waiting = new Map<string, Waiter>();

  /** Resolves true when the reply arrives (or the production is seen final), false on timeout. */
  expect(correlationId: string, productionId: number, timeoutMs: number): { done: Promise<boolean>; cancel: () => void } {
    const done = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.settle(correlationId, false), timeoutMs);
      this.waiting.set(correlationId, { productionId, resolve, timer });
    });
    return { done, cancel: () => this.settle(correlationId, false) };
  }

  /** Called for every reply; unknown ids (late replies after a timeout) are ignored. */
  settle(correlationId: string, replied = true): void {
    const entry = this.waiting.get(correlationId);
    if (!entry) return;
    this.waiting.delete(correlationId);
    clearTimeout(entry.timer);
    clearInterval(entry.polling);
    entry.resolve(replied);
  }

  /** The reply channel was replaced: current waiters poll `isFinal` every `everyMs` instead. */
  pollAfterReconnect(isFinal: (productionId: number) => Promise<boolean>, everyMs: number): void {
    for (const [id, entry] of this.waiting) {
      if (entry.polling) continue;
      entry.polling = setInterval(() => {
        isFinal(entry.productionId).then(
          (final) => final && this.settle(id),
          () => undefined,
        );
      }, everyMs);
    }
  }

  /** Releases every waiter (shutdown): they answer with the production as it stands. */
  releaseAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, false);
  }

  /** Whether a requester still waits for this reply (a late one, after its timeout, is dropped). */
  waitingFor(correlationId: string): boolean {
    return this.waiting.has(correlationId);
  }

  get size(): number {
    return this.waiting.size;
  }
}
