// One vocabulary for `npm run bench`: walks the very command tree cli.ts parses and fails when one
// option name carries two meanings (another argument, another parser, another entry of the
// table), or when two subcommands share a name that is not the table's.
import { Command, Option } from 'commander';
import { launchArgs, type LaunchRequest } from '@shellgrade/console-contract';
import { trendArgs } from '@shellgrade/console-server';
import { program } from '../src/cli';
import { longOf, meaningOf, opt, OPTIONS, tableEntryOf, type OptionName } from '../src/options';

interface Use {
  path: string;
  option: Option;
}

function uses(cmd: Command, path: string[] = [cmd.name()]): Use[] {
  return [...cmd.options.map((option) => ({ path: path.join(' '), option })), ...cmd.commands.flatMap((c) => uses(c, [...path, c.name()]))];
}

/**
 * The table entry an option stands for. Made by opt(): its entry. Registered by a library the
 * harness imports but that cannot import the harness (the traces command): the entry whose flags
 * and parser it repeats exactly, else none.
 */
function entryOf(o: Option): OptionName | undefined {
  const made = meaningOf(o);
  if (made) return made;
  const entry = tableEntryOf(o.long ?? o.flags);
  if (!entry) return undefined;
  const spec: { flags: string; parse?: unknown } = OPTIONS[entry];
  return spec.flags === o.flags && spec.parse === undefined && o.parseArg === undefined ? entry : undefined;
}

/** Every way `root`'s tree gives one name more than one meaning, in words. */
function vocabularyProblems(root: Command): string[] {
  const problems: string[] = [];
  const byName = new Map<string, Use[]>();
  for (const u of uses(root)) {
    const name = u.option.long ?? u.option.flags;
    byName.set(name, [...(byName.get(name) ?? []), u]);
    const entry = entryOf(u.option);
    if (!entry && tableEntryOf(name)) problems.push(`${u.path}: ${u.option.flags} is the table's ${name} with another meaning (use opt('${tableEntryOf(name)}'))`);
    if (entry) {
      const spec: { flags: string; parse?: unknown } = OPTIONS[entry];
      if (u.option.flags !== spec.flags) problems.push(`${u.path}: ${u.option.flags} is not the table's ${spec.flags}`);
      if (u.option.parseArg !== spec.parse) problems.push(`${u.path}: ${name} parses its value otherwise than the table`);
    }
  }
  for (const [name, list] of byName) {
    if (list.length < 2) continue;
    const meanings = new Set(list.map((u) => entryOf(u.option) ?? `its own in ${u.path} (${u.option.flags})`));
    if (meanings.size > 1) problems.push(`${name} means ${meanings.size} things: ${[...meanings].join('; ')}`);
    if (!entryOf(list[0].option)) problems.push(`${name} is taken by ${list.map((u) => u.path).join(', ')}: a shared name belongs in benchmarks/src/options.ts`);
  }
  return problems;
}

describe('bench options: one meaning per name', () => {
  it('every name in the command tree has one meaning, and every shared one is the table\'s', () => {
    expect(vocabularyProblems(program)).toEqual([]);
  });

  it('the table itself names each option once', () => {
    const longs = Object.values(OPTIONS).map((o) => longOf(o.flags));
    expect(longs.filter((l, i) => longs.indexOf(l) !== i)).toEqual([]);
  });

  it('the names the issue found ambiguous now mean one thing each', () => {
    const flagsOf = (name: string) => new Set(uses(program).filter((u) => u.option.long === name).map((u) => u.option.flags));
    expect(flagsOf('--out')).toEqual(new Set(['--out <dir>']));
    expect(flagsOf('--run')).toEqual(new Set(['--run <run-id>']));
    expect(flagsOf('--variant')).toEqual(new Set(['--variant <name>']));
    // matrix and trend take the variant by option; their positional form is only a deprecated alias.
    for (const name of ['matrix', 'trend']) {
      const cmd = program.commands.find((c) => c.name() === name)!;
      expect(cmd.options.some((o) => o.long === (name === 'matrix' ? '--variants' : '--variant'))).toBe(true);
      expect(cmd.registeredArguments.every((a) => !a.required && a.description.startsWith('deprecated'))).toBe(true);
    }
  });

  // The console builds `npm run bench` command lines of its own (libs/console-contract launchArgs,
  // libs/console-server trendArgs): each must be options of this tree, no positional form.
  it.each<[string, string[]]>([
    ...(
      [
        { plan: 'run', preset: 'naked-mon', profile: 'smoke', runs: 2, peak: 3 },
        { plan: 'suite', preset: 'naked-mon', profile: 'soak-smoke', saturation: 4 },
        { plan: 'matrix', presets: ['naked-mon', 'msa-1-2'], profile: 'smoke', runs: 2 },
        { plan: 'findings', mode: 'quick' },
        { plan: 'faults', preset: 'mon-x2', profile: 'smoke' },
      ] as LaunchRequest[]
    ).map((r): [string, string[]] => [`launch ${r.plan}`, launchArgs(r)]),
    ['trend', (trendArgs({ preset: 'naked-mon', last: '3', profile: 'small' }) as { args: string[] }).args],
  ])("the console's %s command line is options of the tree, nothing positional", (_what, args) => {
    const [name, ...rest] = args;
    const cmd = program.commands.find((c) => c.name() === name)!;
    expect(cmd).toBeDefined();
    const { operands, unknown } = cmd.parseOptions(rest);
    expect({ operands, unknown }).toEqual({ operands: [], unknown: [] });
  });

  describe('the checker sees what it is for', () => {
    const tree = (build: (root: Command) => void): Command => {
      const root = new Command('bench');
      build(root);
      return root;
    };

    it('is quiet on a tree that keeps the vocabulary', () => {
      expect(vocabularyProblems(tree((r) => {
        r.command('a').addOption(opt('out')).addOption(opt('variant'));
        r.command('b').addOption(opt('out', { description: 'where b writes (default: results/b)' })).option('--only-b <x>', 'b alone');
      }))).toEqual([]);
    });

    it('names a folder and a file under one name', () => {
      const problems = vocabularyProblems(tree((r) => {
        r.command('report').addOption(opt('out'));
        r.command('models').option('--out <file>', 'write the JSON here');
      }));
      expect(problems.join('\n')).toMatch(/models: --out <file> is the table's --out with another meaning/);
      expect(problems.join('\n')).toMatch(/--out means 2 things/);
    });

    it('names another parser under the same flags', () => {
      const problems = vocabularyProblems(tree((r) => {
        r.command('run').addOption(opt('holdS'));
        r.command('sweep').option('--hold-s <s>', 'measured window', Number);
      }));
      expect(problems.join('\n')).toMatch(/sweep: --hold-s <s> is the table's --hold-s with another meaning/);
    });

    it('names an option two subcommands share outside the table', () => {
      const problems = vocabularyProblems(tree((r) => {
        r.command('a').option('--widgets <n>', 'widgets');
        r.command('b').option('--widgets <list>', 'widget names');
      }));
      expect(problems.join('\n')).toMatch(/--widgets means 2 things/);
      expect(problems.join('\n')).toMatch(/--widgets is taken by bench a, bench b/);
    });
  });
});
