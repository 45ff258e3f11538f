// Every command that runs tests takes the same placement options, as the table words them: one
// list (PLACEMENT_OPTIONS) added by one helper, and a command that loses the call loses the options.
import { Command } from 'commander';
import { program } from '../../src/cli';
import { defineFindingsCommand } from '../../src/findings/cli';
import { meaningOf, PLACEMENT_OPTIONS } from '../../src/options';
import { placementRequest } from '../../src/placement/options';

/** The commands of the front door that place their processes (calibrate takes a subset of its own). */
const PLACED = ['run', 'matrix', 'findings', 'reproduce'];

function placementOptionsOf(cmd: Command): string[] {
  return cmd.options.map(meaningOf).filter((m): m is (typeof PLACEMENT_OPTIONS)[number] => (PLACEMENT_OPTIONS as readonly string[]).includes(m ?? ''));
}

describe('placement options: one list, on every command that runs tests', () => {
  it.each(PLACED)('bench %s takes every placement option from the table, in the one order', (name) => {
    const cmd = program.commands.find((c) => c.name() === name);
    expect(cmd).toBeDefined();
    expect(placementOptionsOf(cmd!)).toEqual([...PLACEMENT_OPTIONS]);
  });

  it('npm run findings (the findings command on its own) takes them too', () => {
    expect(placementOptionsOf(defineFindingsCommand(new Command('findings')))).toEqual([...PLACEMENT_OPTIONS]);
  });

  it('the options as typed reach placementRequest the same on every command', () => {
    const args = ['--placement', 'on', '--client-cpus', '1', '--sut-cpus', '0', '--testbed', 'scaled', '--scale', '0.5'];
    for (const name of PLACED) {
      const cmd = program.commands.find((c) => c.name() === name)!;
      const flags = cmd.parseOptions(args);
      expect({ name, unknown: flags.unknown }).toEqual({ name, unknown: [] });
      // parseOptions stores values on the command; opts() is what the action receives.
      expect({ name, request: placementRequest(cmd.opts()) }).toEqual({ name, request: { mode: 'on', clientCpus: '1', sutCpus: '0', testbed: { testbed: 'scaled', scale: 0.5 } } });
    }
  });
});
