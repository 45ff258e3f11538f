// The findings as the repository publishes them (docs/findings/): a compact JSON made from one
// record — the verdicts, each claim's table, the methodology, the reproduction scorecard, the
// date, commit and host probe; never the raw run folders — and the pages rendered from that JSON
// alone, so `--check` can regenerate them byte for byte. The README's findings section is the
// same render, between two markers.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toMarkdown, type Block } from './blocks';
import type { FindingResult } from './evaluate';
import type { Principle } from './methodology';
import type { FindingsPlan } from './plan';
import type { FindingsRecord } from './record';
import { PART_HEAD, partRow, protocolSummary, rulesText, verdictCounts } from './report';
import { rankingRows, scorecardHtml, scorecardMarkdown } from '../reproduce/page';
import type { Scorecard } from '../reproduce/scorecard';
import type { MachineSpeed } from '../machine-speed';
import type { Evidence } from './verdict';

export const PUBLISHED_JSON = 'findings.json';
export const PUBLISHED_SCHEMA = 'shellgrade.published-findings/1';

/** A part in numbers, as `--compare` reads it from an evaluated or a published record: what it tests, B − A with its interval, its verdict and evidence (absent in records evaluated before it was kept). */
export interface ComparablePart {
  test: { reads: string; level: string; metric: string; expect: string };
  difference: { diff: number | null; lo: number | null; hi: number | null } | null;
  verdict: { verdict: string };
  evidence?: Evidence | null;
}

export interface PublishedClaim {
  id: string;
  title: string;
  quote: string;
  verdict: string;
  keyFigure: string;
  /** How the verdict was obtained (measured unscaled / in the scale model / predicted), where the record says. */
  evidence: string[];
  rows: string[][];
  rules: string;
  explanation: string[];
  caveats: string[];
  /** The parts in numbers, for `--compare` against a record made elsewhere (absent in files published before they were kept). */
  parts?: ComparablePart[];
}

export interface PublishedFindings {
  schema: typeof PUBLISHED_SCHEMA;
  /** The record's mode: smoke proves the machinery and decides nothing; quick is fewer runs; full is the reproduction. */
  mode: FindingsPlan['mode'];
  /** Where the record lived when published (results/ is not in git) and the command that made it. */
  record: string;
  command: string;
  /** The command that makes the full record this one stands in for (absent: it is the full one). */
  fullCommand?: string;
  startedAt: string;
  endedAt: string | null;
  commit: string | null;
  /** Run folders from a tree with uncommitted changes. */
  dirtyRuns: number;
  testbed: string;
  host: { cpuModel: string; cores: number; memGiB: number; kernel: string; speed: { scryptN14Ms: number; spawnMs: number } | null } | null;
  protocol: string;
  counts: string;
  claims: PublishedClaim[];
  methodology: Principle[];
  scorecard: Scorecard | null;
  /** Cell → the speed probe of the host (and boot) its first run measured: --compare sets two records' hosts side by side (absent in files published before it was kept). */
  speeds?: Record<string, MachineSpeed | null>;
}

/** What writeFindingsReport leaves beside a record (findings.json). */
export interface EvaluatedRecord {
  plan: FindingsPlan;
  record: FindingsRecord | null;
  methodology: Principle[];
  results: FindingResult[];
  speeds?: Record<string, MachineSpeed | null>;
}

export interface RunFacts {
  host: PublishedFindings['host'];
  commit: string | null;
  dirtyRuns: number;
  testbed: string;
}

/** The full command a mode's record stands in for. */
export const FULL_COMMAND = 'npm run findings -- --testbed scaled && npm run bench -- reproduce 000 --testbed scaled && npm run findings -- --publish';

function evidenceOf(r: FindingResult): string[] {
  const e = (r as { evidence?: unknown }).evidence;
  return Array.isArray(e) ? e.filter((x): x is string => typeof x === 'string') : [];
}

const comparablePart = (p: FindingResult['parts'][number]): ComparablePart => ({
  test: { reads: p.test.reads, level: p.test.level, metric: p.test.metric, expect: p.test.expect },
  difference: p.difference && { diff: p.difference.diff, lo: p.difference.lo, hi: p.difference.hi },
  verdict: { verdict: p.verdict.verdict },
  evidence: p.evidence ?? null,
});

export function publishedFrom(e: EvaluatedRecord, at: { record: string; command: string; facts: RunFacts; scorecard: Scorecard | null }): PublishedFindings {
  const rec = e.record;
  return {
    schema: PUBLISHED_SCHEMA,
    mode: e.plan.mode,
    record: at.record,
    command: at.command,
    ...(e.plan.mode === 'full' ? {} : { fullCommand: FULL_COMMAND }),
    startedAt: rec?.startedAt ?? '',
    endedAt: rec?.endedAt ?? null,
    commit: at.facts.commit,
    dirtyRuns: at.facts.dirtyRuns,
    testbed: at.facts.testbed,
    host: at.facts.host,
    protocol: protocolSummary({ plan: e.plan, record: rec ?? undefined }),
    counts: verdictCounts(e.results),
    claims: e.results.map((r) => ({
      id: r.claim.id,
      title: r.claim.title,
      quote: r.claim.quote,
      verdict: r.verdict,
      keyFigure: r.keyFigure,
      evidence: evidenceOf(r),
      rows: r.parts.map(partRow),
      rules: rulesText(r),
      explanation: r.explanation,
      caveats: r.caveats,
      parts: r.parts.map(comparablePart),
    })),
    methodology: e.methodology,
    scorecard: at.scorecard,
    ...(e.speeds ? { speeds: e.speeds } : {}),
  };
}

const MODE_NOTE: Record<FindingsPlan['mode'], string> = {
  smoke: '**Smoke record**: two cells, two short runs each — it shows the machinery end to end and decides nothing. A full record takes hours on a quiet machine',
  quick: '**Quick record**: two runs a cell at the paper-equivalent load only — a difference is decided only when it is large against the run-to-run spread',
  full: 'Full record',
};

function hostText(p: PublishedFindings): string {
  const h = p.host;
  if (!h) return 'host not recorded';
  return `${h.cpuModel}, ${h.cores} cores, ${h.memGiB} GiB, kernel ${h.kernel}; speed probe ${h.speed ? `scrypt 2^14 ${h.speed.scryptN14Ms} ms, spawn ${h.speed.spawnMs} ms` : 'not recorded'}`;
}

/** Date, commit, host probe, testbed and how it was made: the head of every published page. */
export function provenanceText(p: PublishedFindings): string {
  const dirty = p.dirtyRuns ? ` (${p.dirtyRuns} run folder(s) from a tree with uncommitted changes)` : '';
  const full = p.fullCommand ? `. The full record: \`${p.fullCommand}\`` : '';
  return `${MODE_NOTE[p.mode]}. Runs ${p.startedAt.slice(0, 16).replace('T', ' ')}–${p.endedAt?.slice(11, 16) ?? 'unfinished'} UTC, commit ${p.commit?.slice(0, 12) ?? 'unknown'}${dirty}, testbed ${p.testbed}; ${hostText(p)}. Made by \`${p.command}\` (record ${p.record})${full}.`;
}

const verdictRows = (p: PublishedFindings): string[][] => p.claims.map((c) => [`(${c.id}) ${c.title}`, `**${c.verdict}**`, c.evidence.join('; ') || 'none: no comparison made', c.keyFigure]);

/** The verdict table and the scorecard's ρ: what the README's findings section opens with. */
export function headlineBlocks(p: PublishedFindings): Block[] {
  return [
    { kind: 'p', text: provenanceText(p) },
    { kind: 'p', text: `${p.counts}.` },
    { kind: 'table', head: ['finding', 'verdict', 'evidence', 'decisive comparison (B − A, 95% CI, Cliff\'s δ)'], rows: verdictRows(p) },
    p.scorecard
      ? ({ kind: 'table', head: ["reproduction of Tables I–III: ours against the paper's", 'Spearman ρ [95 % CI] (configurations)', 'what it ranks'], rows: rankingRows(p.scorecard) } as Block)
      : ({ kind: 'p', text: "Reproduction scorecard (Spearman's ρ of our rankings against Tables I–III): not in this record — `npm run bench -- reproduce 000 --testbed scaled` makes it (`--dry-run` prints its plan and planned wall time; `--continue` finishes one cut short)." } as Block),
  ];
}

export function findingsPageBlocks(p: PublishedFindings): Block[] {
  return [
    { kind: 'h1', text: `Paper 000's findings on shellgrade (${p.mode})` },
    ...headlineBlocks(p),
    { kind: 'p', text: `Protocol: ${p.protocol} Methodology: [methodology.md](methodology.md).${p.scorecard ? ' Scorecard: [scorecard.md](scorecard.md) ([HTML with figures](scorecard.html)).' : ''}` },
    ...p.claims.flatMap((c): Block[] => [
      { kind: 'h2', text: `(${c.id}) ${c.title}: ${c.verdict}` },
      { kind: 'quote', text: c.quote },
      { kind: 'table', head: PART_HEAD, rows: c.rows },
      { kind: 'p', text: c.rules },
      { kind: 'h3', text: 'Explanation' },
      { kind: 'list', items: c.explanation.length ? c.explanation : ['no run to explain from'] },
      ...(c.caveats.length ? [{ kind: 'h3', text: 'Caveats' } as Block, { kind: 'list', items: c.caveats } as Block] : []),
    ]),
  ];
}

export function methodologyBlocks(p: PublishedFindings): Block[] {
  return [
    { kind: 'h1', text: 'Methodology (Papadopoulos et al., IEEE TSE 2019)' },
    { kind: 'p', text: provenanceText(p) },
    { kind: 'p', text: "The eight principles for reproducible performance evaluation, each with this record's evidence; **NOT MET** marks where it falls short." },
    { kind: 'table', head: ['principle', 'evidence', 'met'], rows: p.methodology.map((m) => [`${m.id} ${m.name}`, m.evidence, m.flag ? `**NOT MET**: ${m.flag}` : 'met']) },
  ];
}

export const README_BEGIN = '<!-- findings:begin (npm run findings -- --publish writes this section from docs/findings/findings.json) -->';
export const README_END = '<!-- findings:end -->';

/** The README's findings section body (between the markers). */
export function readmeSection(p: PublishedFindings): string {
  return toMarkdown([...headlineBlocks(p), { kind: 'p', text: 'Every claim in full, the methodology and the scorecard: [docs/findings/](docs/findings/findings.md).' }]);
}

/** Every published file, rendered from the JSON alone. */
export function renderPublished(p: PublishedFindings): Record<string, string> {
  const files: Record<string, string> = {
    [PUBLISHED_JSON]: JSON.stringify(p, null, 2) + '\n',
    'findings.md': toMarkdown(findingsPageBlocks(p)),
    'methodology.md': toMarkdown(methodologyBlocks(p)),
  };
  if (p.scorecard) {
    files['scorecard.md'] = scorecardMarkdown(p.scorecard);
    files['scorecard.html'] = scorecardHtml(p.scorecard);
  }
  return files;
}

/** The README with its findings section replaced (added before "## Benchmarks and traces" when it has none). */
export function withReadmeSection(readme: string, p: PublishedFindings): string {
  const block = `${README_BEGIN}\n${readmeSection(p)}${README_END}`;
  const from = readme.indexOf(README_BEGIN);
  const to = readme.indexOf(README_END);
  if (from >= 0 && to > from) return readme.slice(0, from) + block + readme.slice(to + README_END.length);
  const anchor = readme.indexOf('## Benchmarks and traces');
  const section = `## Findings\n\n${block}\n\n`;
  return anchor >= 0 ? readme.slice(0, anchor) + section + readme.slice(anchor) : `${readme.trimEnd()}\n\n${section}`;
}

export function writePublished(p: PublishedFindings, docsDir: string, readmeFile?: string): string[] {
  mkdirSync(docsDir, { recursive: true });
  const files = Object.entries(renderPublished(p)).map(([name, text]) => {
    writeFileSync(join(docsDir, name), text);
    return join(docsDir, name);
  });
  if (readmeFile) {
    writeFileSync(readmeFile, withReadmeSection(readFileSync(readmeFile, 'utf8'), p));
    files.push(readmeFile);
  }
  return files;
}

/** The modes published in a folder of their own under docs/findings, the full record's being docs/findings itself. */
export const SUBFOLDER_MODES: readonly FindingsPlan['mode'][] = ['quick', 'smoke'];

/**
 * Where a record is published: a full one in docs/findings, with the README's findings section; a
 * quick or smoke one in docs/findings/<mode>, the README left to the full record (a quick record
 * published there would have replaced the reproduction's verdicts with fewer runs' ones).
 */
export function publicationOf(mode: FindingsPlan['mode'], repo: string, docsDir?: string): { docsDir: string; readmeFile?: string } {
  const base = join(repo, 'docs', 'findings');
  return mode === 'full' ? { docsDir: docsDir ?? base, readmeFile: join(repo, 'README.md') } : { docsDir: docsDir ?? join(base, mode) };
}

/** Every publication under docs/findings that differs from its JSON's render: the full record's (and the README's section) and each quick or smoke one's. */
export function checkAllPublished(repo: string): string[] {
  const full = publicationOf('full', repo);
  const others = SUBFOLDER_MODES.map((m) => publicationOf(m, repo).docsDir).filter((d) => existsSync(join(d, PUBLISHED_JSON)));
  return [...checkPublished(full.docsDir, full.readmeFile), ...others.flatMap((d) => checkPublished(d))];
}

/** Files under docsDir (and the README's section) that differ from what their JSON renders: empty when the publication is its JSON's. */
export function checkPublished(docsDir: string, readmeFile?: string): string[] {
  const p = JSON.parse(readFileSync(join(docsDir, PUBLISHED_JSON), 'utf8')) as PublishedFindings;
  const differ = Object.entries(renderPublished(p))
    .filter(([name, text]) => !existsSync(join(docsDir, name)) || readFileSync(join(docsDir, name), 'utf8') !== text)
    .map(([name]) => join(docsDir, name));
  if (readmeFile) {
    const readme = readFileSync(readmeFile, 'utf8');
    if (withReadmeSection(readme, p) !== readme) differ.push(readmeFile);
  }
  return differ;
}

