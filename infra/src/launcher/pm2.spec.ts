/**
 * The daemon connection of a long-lived caller (the bench harness, a test process): overlapping
 * calls share one connection and the last one lets it go, so the caller can exit. A second
 * connect while the first was pending opened a second socket that disconnect() left open, and
 * the harness never exited (seen on a fault-matrix run).
 */
const calls: string[] = [];
jest.mock('pm2', () => ({
  connect: (cb: (err: Error | null) => void) => {
    calls.push('connect');
    setTimeout(() => cb(null), 5);
  },
  disconnect: () => calls.push('disconnect'),
  list: (cb: (err: Error | null, procs: unknown[]) => void) => setTimeout(() => cb(null, []), 5),
}));

import { list, withConnection } from './pm2';

beforeEach(() => {
  calls.length = 0;
});

it('overlapping calls connect once and disconnect once, after the last', async () => {
  await Promise.all([withConnection(() => list()), withConnection(() => list()), withConnection(async () => list().then(() => list()))]);
  expect(calls).toEqual(['connect', 'disconnect']);
});

it('a later call connects again', async () => {
  await withConnection(() => list());
  await withConnection(() => list());
  expect(calls).toEqual(['connect', 'disconnect', 'connect', 'disconnect']);
});
