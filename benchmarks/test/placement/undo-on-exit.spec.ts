// The placement and the scale model are undone however the harness ends: on exit, and on a
// signal — undone first, then the signal re-raised with the default action back.
import { UndoOnExit } from '../../src/placement/undo-on-exit';

const listeners = (event: string): number => process.listenerCount(event);

describe('UndoOnExit', () => {
  it("undoes on exit and on SIGTERM (then re-raises it without itself in the way); detach leaves nothing behind", () => {
    const before = { exit: listeners('exit'), term: listeners('SIGTERM'), int: listeners('SIGINT'), hup: listeners('SIGHUP') };
    const undo = jest.fn();
    const guard = new UndoOnExit(undo);
    expect([listeners('exit'), listeners('SIGTERM'), listeners('SIGINT'), listeners('SIGHUP')]).toEqual([before.exit + 1, before.term + 1, before.int + 1, before.hup + 1]);

    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      const onTerm = process.listeners('SIGTERM').at(-1) as (sig: NodeJS.Signals) => void;
      onTerm('SIGTERM');
      expect(undo).toHaveBeenCalledTimes(1);
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGTERM');
      // Re-raised with every listener of ours gone: the default action ends the process.
      expect([listeners('exit'), listeners('SIGTERM'), listeners('SIGINT'), listeners('SIGHUP')]).toEqual([before.exit, before.term, before.int, before.hup]);
    } finally {
      kill.mockRestore();
    }

    const again = jest.fn();
    const second = new UndoOnExit(again);
    (process.listeners('exit').at(-1) as () => void)();
    expect(again).toHaveBeenCalledTimes(1);
    second.detach();
    guard.detach();
    expect(listeners('exit')).toBe(before.exit);
  });
});
