/**
 * CONTRIBUTING.md's "Add a preset" recipe, run as written. Its YAML block goes into a copy of
 * infra/variants (the recipe writes into infra/variants itself; the copy keeps the shipped list
 * unchanged for the tests that enumerate presets), is found the way `npm run variant -- show`
 * finds presets (SG_VARIANTS_DIR, else the repository's folder), and what that command prints
 * through the recipe's jq filter must be the lines the recipe promises. A recipe that drifts from
 * the loader — a field renamed, a rule added, a default changed — turns this red before a
 * newcomer trips on it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { entryUrl, listVariants, loadVariant, variantProcesses, variantServers, variantsDir } from '@shellgrade/variant';

const repo = resolve(__dirname, '..');

/** The text of one `### <title>` section of a Markdown file, up to the next heading of that level or above (a `#` line inside a fenced block is no heading). */
function section(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `### ${title}`);
  if (start < 0) throw new Error(`no section "### ${title}"`);
  let fenced = false;
  const end = lines.findIndex((l, i) => {
    if (l.startsWith('```')) fenced = !fenced;
    return i > start && !fenced && /^#{1,3} /.test(l);
  });
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The fenced blocks of a Markdown text, with their info string (```yaml → yaml). */
function fencedBlocks(markdown: string): { lang: string; body: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2] }));
}

/** The jq filter the recipe pipes `variant show` through, and what it prints, computed from the same functions the CLI calls. */
const SHOW_FILTER = `jq -r '.entry, (.servers | join(" ")), (.processes[] | "\\(.name) \\(.port)")'`;
function showThroughFilter(name: string): string[] {
  // infra/src/launcher/cli.ts `show`: { spec, entry: entryUrl(spec), servers: variantServers(spec), processes: variantProcesses(spec) }
  const spec = loadVariant(name);
  return [entryUrl(spec), variantServers(spec).join(' '), ...variantProcesses(spec).map((p) => `${p.name} ${p.port}`)];
}

const recipe = section(readFileSync(join(repo, 'CONTRIBUTING.md'), 'utf8'), 'Add a preset');
const blocks = fencedBlocks(recipe);

describe('CONTRIBUTING.md: add a preset', () => {
  const presets = mkdtempSync(join(tmpdir(), 'sg-recipe-variants-'));
  const before = process.env.SG_VARIANTS_DIR;

  beforeAll(() => {
    // The repository's presets as they are: the new file is added beside them, as the recipe says.
    cpSync(join(repo, 'infra', 'variants'), presets, { recursive: true });
    process.env.SG_VARIANTS_DIR = presets;
  });

  afterAll(() => {
    if (before === undefined) delete process.env.SG_VARIANTS_DIR;
    else process.env.SG_VARIANTS_DIR = before;
    rmSync(presets, { recursive: true, force: true });
  });

  // Step 2: the file the recipe writes, named in its first line.
  const yaml = blocks.find((b) => b.lang === 'yaml');
  const file = /^# infra\/variants\/([a-z0-9-]+)\.yaml\n/.exec(yaml?.body ?? '');
  // Step 3: the command and the lines it prints.
  const shown = blocks.find((b) => b.lang === 'console' && b.body.includes('variant -- show'));
  const [command, ...printed] = (shown?.body ?? '').trimEnd().split('\n');

  it('has the steps this test follows: a YAML file under infra/variants, and `variant show` with its output', () => {
    expect(file?.[1]).toBeDefined();
    expect(command).toBe(`$ npm run --silent variant -- show ${file?.[1]} | ${SHOW_FILTER}`);
    expect(printed.length).toBeGreaterThan(2);
  });

  it('writes a preset the loader accepts, found where the launcher looks', () => {
    const name = file![1];
    writeFileSync(join(presets, `${name}.yaml`), yaml!.body);
    expect(variantsDir()).toBe(presets);
    // libs/variant/src/loader.spec.ts compares this list with its own: step 4 adds the name there.
    expect(listVariants()).toContain(name);
    const spec = loadVariant(name);
    expect(spec.name).toBe(name);
    // Every preset's description says which grader exec it runs (loader.spec.ts holds each to it).
    expect(spec.description).toMatch(new RegExp(`grader exec ${spec.grader.exec}`, 'i'));
  });

  it('inherits everything it does not override, as the recipe says (replicas replaced whole, mappings merged, no paper)', () => {
    const name = file![1];
    const spec = loadVariant(name);
    const parentName = /^extends: ([a-z0-9-]+)$/m.exec(yaml!.body)![1];
    const parent = loadVariant(parentName);
    expect(spec.paper).toBeUndefined();
    expect(parent.paper).toBeDefined();
    // Not a paper configuration: admission control comes on with its defaults.
    expect(spec.admission.enabled).toBe(true);
    expect(parent.admission.enabled).toBe(false);
    // The grader mapping merges key by key: the parent's isolation and timeout stay.
    expect(spec.grader).toEqual({ ...parent.grader, exec: 'pool', poolSize: 2 });
    const { name: _n, description: _d, paper: _p, admission: _a, replicas, grader: _g, ...rest } = spec;
    const { name: _pn, description: _pd, paper: _pp, admission: _pa, replicas: _pr, grader: _pg, ...parentRest } = parent;
    expect(rest).toEqual(parentRest);
    expect(replicas).toEqual({ gateway: 1, leftover: 1, exercise: 3 });
  });

  it('prints the process plan the recipe shows', () => {
    expect(showThroughFilter(file![1])).toEqual(printed);
  });
});
