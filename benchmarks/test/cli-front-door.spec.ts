// One front door for research. `bench` carries every research command
// (models, findings, traces and the storage micro-benchmark included), each with a real --help,
// and refuses a wrong option with a clear message. Built from the very program cli.ts parses.
import { Command, CommanderError, type Option } from 'commander';
import { registerTracesCommand } from '@shellgrade/traces';
import { program } from '../src/cli';
import { defineModelsCommand } from '../src/models/cli';
import { defineFindingsCommand } from '../src/findings/cli';

/** The command tree, path by path: dropping a registration makes this red. */
const TREE: Record<string, string[]> = {
  bench: ['run', 'matrix', 'calibrate', 'report', 'compare', 'trend', 'replay', 'sweep', 'paper001', 'mix', 'reanalyse', 'main', 'faults', 'faults-table', 'models', 'findings', 'traces', 'storage-growth', 'back-to-back', 'pg-statements', 'grader'],
  'bench models': ['demands', 'predict', 'compare', 'saturation'],
  'bench traces': ['attribute', 'overhead'],
  'bench grader': ['baseline', 'cpu', 'profile'],
};

/** `traces <run-id>`'s refusal of an option in place of the run id is its action's own (it never runs one). */
const ACTION_REFUSES = new Set(['bench traces']);

interface Node {
  path: string[];
  cmd: Command;
}

function walk(cmd: Command, path: string[] = [cmd.name()]): Node[] {
  return [{ path, cmd }, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()]))];
}

const nodes = walk(program);
const key = (n: Node) => n.path.join(' ');
let stderr = '';
let stdout = '';

beforeAll(() => {
  for (const { path, cmd } of nodes) {
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: (s) => void (stdout += s), writeErr: (s) => void (stderr += s) });
    cmd.configureHelp({ helpWidth: 10_000 });
    // Nothing may run here: an option wrongly accepted would reach a stub, never a benchmark.
    // (Leaves only: a parent given an action would take an unknown command for its argument.)
    if (cmd.commands.length === 0 && !ACTION_REFUSES.has(path.join(' '))) cmd.action(() => Promise.reject(new Error(`action of ${path.join(' ')} ran`)));
  }
});

beforeEach(() => {
  stderr = '';
  stdout = '';
});

/** Parses `args` (after `bench`) and returns how commander refused or exited. */
async function exitOf(args: string[]): Promise<CommanderError> {
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error;
    throw error;
  }
  throw new Error(`bench ${args.join(' ')} neither exited nor refused`);
}

const defaultShown = (o: Option): string => `default: ${o.defaultValueDescription ?? JSON.stringify(o.defaultValue)}`;

describe('bench: the one front door', () => {
  it('carries every command and subcommand', () => {
    for (const [path, names] of Object.entries(TREE)) {
      const node = nodes.find((n) => key(n) === path);
      expect(node).toBeDefined();
      const have = node!.cmd.commands.map((c) => c.name());
      expect({ path, missing: names.filter((n) => !have.includes(n)) }).toEqual({ path, missing: [] });
    }
    expect(nodes.length).toBeGreaterThanOrEqual(1 + Object.values(TREE).flat().length);
  });

  it.each(nodes.map((n) => [key(n), n] as const))('%s has a description and a help listing every option with its default', (_name, { path, cmd }) => {
    expect(cmd.description().length).toBeGreaterThan(10);
    const help = cmd.helpInformation();
    expect(help).toContain(`Usage: ${path.join(' ')}`);
    expect(help).toContain(cmd.description());
    for (const o of cmd.options) {
      expect(help).toContain(o.flags);
      if (o.defaultValue !== undefined && !o.negate && (o.required || o.optional)) expect(help).toContain(defaultShown(o));
    }
  });

  it.each(nodes.map((n) => [key(n), n] as const))('%s --help prints its help and exits 0', async (_name, { path, cmd }) => {
    const e = await exitOf([...path.slice(1), '--help']);
    expect(e.code).toBe('commander.helpDisplayed');
    expect(e.exitCode).toBe(0);
    expect(stdout).toBe(cmd.helpInformation());
  });

  it.each(nodes.map((n) => [key(n), n] as const))('%s refuses a wrong option with a clear message', async (_name, { path, cmd }) => {
    // The mandatory options given (commander checks them first), then an option nobody has.
    const mandatory = cmd.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, '1']);
    const e = await exitOf([...path.slice(1), ...mandatory, '--no-such-option']);
    expect(e.exitCode).not.toBe(0);
    expect(e.code).toBe('commander.unknownOption');
    expect(stderr).toContain("error: unknown option '--no-such-option'");
    expect(stderr).toContain('(add --help for usage)');
  });

  it('refuses an unknown command', async () => {
    const e = await exitOf(['no-such-command']);
    expect(e.code).toBe('commander.unknownCommand');
    expect(stderr).toContain("unknown command 'no-such-command'");
  });
});

describe('npm run models | findings | traces: aliases of the same registrations', () => {
  const shape = (cmd: Command): unknown => ({
    description: cmd.description(),
    options: cmd.options.map((o) => [o.flags, o.description, o.defaultValue]),
    args: cmd.registeredArguments.map((a) => a.name()),
    commands: cmd.commands.map(shape),
  });
  const front = (name: string) => program.commands.find((c) => c.name() === name)!;

  it.each([
    ['models', () => defineModelsCommand(new Command('models'))],
    ['findings', () => defineFindingsCommand(new Command('findings'))],
    ['traces', () => registerTracesCommand(new Command('x'))],
  ] as const)('%s on its own is the front door one', (name, own) => {
    expect(shape(own())).toEqual(shape(front(name)));
  });
});
