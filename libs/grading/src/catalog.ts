/**
 * The exercise catalog shipped with libs/grading (docs/design.md, Grading contract): statement,
 * question archive and grader of each exercise, plus generated good/bad sample answers. Archives
 * are built by catalog/build.py (deterministic); a missing or stale build is rebuilt on first use.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { notFound } from '@shellgrade/domain';
import { catalogDir } from './assets';
import { graderPython } from './grader-python';

export interface CatalogExercise {
  slug: string;
  name: string;
  statementHtml: string;
  questionArchive: Buffer;
  graderScript: string;
  locale: string;
  skills: string[];
  /** The folder every answer archive must start with (e.g. "SCRIPTS"). */
  topFolder: string;
}

export interface SampleAnswer {
  name: string;
  bytes: Buffer;
  /** numQ values the grader must report NOT OK for this answer. */
  expectedNotOk: number[];
}

/** An answer that attacks the grader (reads it, rewrites what it checks, floods feedback). */
export interface TamperingAnswer {
  name: string;
  bytes: Buffer;
  /** The honest wrong answer it must score exactly like. */
  honest: Buffer;
}

export interface CatalogSamples {
  good: Buffer;
  bad: SampleAnswer[];
  tampering: TamperingAnswer[];
}

export const PAPER_SLUG = 'paper-scripts';
/** The command documented for humans and CI; loadCatalog runs the same thing on demand. */
export const CATALOG_BUILD_COMMAND = '"$(bash infra/bin/servers tool-path grader-python)" libs/grading/catalog/build.py';

const metaSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  locale: z.string().min(2),
  topFolder: z.string().min(1),
  skills: z.array(z.string()),
});

const manifestSchema = z.record(
  z.string(),
  z.object({
    question: z.string(),
    good: z.string(),
    bad: z.array(z.object({ name: z.string(), file: z.string(), expectedNotOk: z.array(z.number().int()) })),
    tampering: z.array(z.object({ name: z.string(), file: z.string(), honest: z.string() })).default([]),
  }),
);
type Manifest = z.infer<typeof manifestSchema>;

const buildDir = () => join(catalogDir(), 'build');
const manifestPath = () => join(buildDir(), 'manifest.json');

let cache: { exercises: CatalogExercise[]; manifest: Manifest } | undefined;

export function loadCatalog(): CatalogExercise[] {
  return load().exercises;
}

export function getCatalogExercise(slug: string): CatalogExercise {
  const found = load().exercises.find((e) => e.slug === slug);
  if (!found) throw notFound('catalog exercise', slug);
  return found;
}

export function loadSamples(slug: string): CatalogSamples {
  const entry = load().manifest[slug];
  if (!entry) throw notFound('catalog exercise', slug);
  const read = (file: string) => readFileSync(join(buildDir(), file));
  return {
    good: read(entry.good),
    bad: entry.bad.map((b) => ({ name: b.name, bytes: read(b.file), expectedNotOk: b.expectedNotOk })),
    tampering: entry.tampering.map((t) => ({ name: t.name, bytes: read(t.file), honest: read(t.honest) })),
  };
}

/** Stable path of the paper-equivalent good answer (~1 KB), for k6 and benchmarks. */
export function paperSamplePath(): string {
  ensureCatalogBuilt();
  return join(buildDir(), PAPER_SLUG, 'good.tgz');
}

/** Runs catalog/build.py when the build is missing or older than its sources. */
export function ensureCatalogBuilt(python = graderPython()): void {
  if (!needsBuild()) return;
  const script = join(catalogDir(), 'build.py');
  const r = spawnSync(python, [script], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0 || !existsSync(manifestPath())) {
    throw new Error(
      `building the exercise catalog failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr ?? ''}\n` +
        `run it by hand: ${CATALOG_BUILD_COMMAND}`,
    );
  }
  cache = undefined;
}

function needsBuild(): boolean {
  if (!existsSync(manifestPath())) return true;
  const built = statSync(manifestPath()).mtimeMs;
  const dir = catalogDir();
  const sources = [join(dir, 'build.py'), join(dir, 'treespec.py')];
  for (const slug of exerciseFolders()) sources.push(join(dir, slug, 'samples.py'), join(dir, slug, 'exercise.json'));
  return sources.some((s) => existsSync(s) && statSync(s).mtimeMs > built);
}

function exerciseFolders(): string[] {
  return readdirSync(catalogDir(), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(catalogDir(), d.name, 'exercise.json')))
    .map((d) => d.name)
    .sort();
}

function load(): NonNullable<typeof cache> {
  ensureCatalogBuilt();
  if (cache) return cache;
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath(), 'utf8')));
  const exercises = exerciseFolders().map((slug): CatalogExercise => {
    const dir = join(catalogDir(), slug);
    const meta = metaSchema.parse(JSON.parse(readFileSync(join(dir, 'exercise.json'), 'utf8')));
    const built = manifest[slug];
    if (!built) throw new Error(`catalog build has no "${slug}": run ${CATALOG_BUILD_COMMAND}`);
    return {
      ...meta,
      statementHtml: readFileSync(join(dir, 'statement.html'), 'utf8'),
      graderScript: readFileSync(join(dir, 'grader.py'), 'utf8'),
      questionArchive: readFileSync(join(buildDir(), built.question)),
    };
  });
  cache = { exercises, manifest };
  return cache;
}
