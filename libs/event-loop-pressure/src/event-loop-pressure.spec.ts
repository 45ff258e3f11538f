import { EventLoopPressure } from './event-loop-pressure';

/** Keeps the event loop busy for `ms` (a synchronous spin: no timer can fire meanwhile). */
function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* spin */
  }
}

/** Lets the histogram's timer fire once the loop is free again. */
const nextTimers = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('EventLoopPressure', () => {
  let clock = 0;
  const pressures: EventLoopPressure[] = [];
  const pressure = (maxDelayMs: number) => {
    const p = new EventLoopPressure(maxDelayMs, 500, () => clock);
    pressures.push(p);
    return p;
  };
  afterEach(() => pressures.splice(0).forEach((p) => p.stop()));

  it('is behind after the loop was blocked longer than its bound, and keeps up again after a quiet window', async () => {
    // The bound is far from both sides (a 600 ms stall, timers every 30 ms) so a busy test machine cannot flip it.
    const p = pressure(300);
    expect(p.behind()).toBeNull(); // no full window yet
    await nextTimers();
    blockLoop(600);
    await nextTimers();
    clock += 500; // the window ends: its p99 is read
    expect(p.delayMs()).toBeGreaterThan(300);
    expect(p.behind()).toMatch(/^this server is running \d+ ms behind$/);
    for (let i = 0; i < 5; i++) await nextTimers();
    clock += 500;
    expect(p.behind()).toBeNull();
  });

  it('holds its reading within a window (one figure per window, not per call)', async () => {
    const p = pressure(300);
    await nextTimers();
    blockLoop(600);
    await nextTimers();
    clock += 500;
    const reading = p.delayMs();
    for (let i = 0; i < 3; i++) await nextTimers();
    expect(p.delayMs()).toBe(reading);
  });
});
