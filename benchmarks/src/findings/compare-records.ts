// Two evaluated findings records side by side (npm run findings -- --compare <A> <B>): the same
// --quick run on two boots or two hosts, say. Per claim both verdicts and whether they agree; per
// part what differs (verdict, B − A with its interval, the evidence kind); and each record's speed
// probes, since hosts of one type differ up to 2× (machine-speed.ts) and a verdict that flips with
// the host is a finding about the host. Reads findings.json only: what --evaluate wrote, or what
// --publish wrote into the repository (docs/findings/quick holds a quick record made on another
// boot, so a clone can make the two-boot check against it).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { speedMismatch, type MachineSpeed } from '../machine-speed';
import { resultsDir } from '../paths';
import { toMarkdown, type Block } from './blocks';
import { PUBLISHED_SCHEMA, type ComparablePart, type PublishedFindings } from './publish';
import type { Evidence } from './verdict';

export const COMPARE_FILES = { json: 'findings-compare.json', md: 'findings-compare.md' } as const;

/** What this reads of a findings.json (report.ts writes more). */
export interface FindingsFile {
  plan?: { mode?: string };
  record?: { startedAt?: string; mode?: string } | null;
  /** Cell key → run folders merged into it ("a+b"). */
  cells?: Record<string, string>;
  /** Cell key → the speed probe of the host its first run measured (absent in files written before it was kept). */
  speeds?: Record<string, MachineSpeed | null>;
  results: {
    claim: { id: string; title: string };
    verdict: string;
    parts: ComparablePart[];
  }[];
}

export interface Effect {
  diff: number | null;
  lo: number | null;
  hi: number | null;
}

export interface PartDifference {
  /** What the part reads, at which load, of which metric. */
  part: string;
  verdict: [string | null, string | null];
  effect: [Effect | null, Effect | null];
  evidence: [string | null, string | null];
}

export interface ClaimComparison {
  id: string;
  title: string;
  verdicts: [string | null, string | null];
  /** Both decided it (reproduced or refuted): whether the same way; null: at least one did not decide. */
  agree: boolean | null;
  differences: PartDifference[];
}

export interface SpeedSummary {
  /** Distinct probes (by boot and figures), with the cells measured under each. */
  probes: { speed: MachineSpeed; cells: string[] }[];
}

export interface RecordsComparison {
  schema: 'shellgrade.findings-compare/1';
  records: [string, string];
  modes: [string | null, string | null];
  claims: ClaimComparison[];
  /** Every claim both decided, decided the same way. */
  agreeOnDecided: boolean;
  bothDecided: string[];
  disagree: string[];
  speeds: [SpeedSummary, SpeedSummary];
  /** Why milliseconds of the two should not be compared (their hosts' probes differ), or null. */
  speedMismatch: string | null;
}

const DECIDED = new Set(['reproduced', 'refuted']);

/** A record's folder: a path as given (a record, or a published one such as docs/findings/quick), else results/findings/<name>. */
export function recordDir(name: string): string {
  return existsSync(join(name, 'findings.json')) ? name : join(resultsDir(), 'findings', name);
}

export function readFindingsFile(dir: string): FindingsFile {
  const file = join(dir, 'findings.json');
  if (!existsSync(file)) throw new Error(`${file} not found: evaluate the record first (npm run findings -- --evaluate ${dir})`);
  const json = JSON.parse(readFileSync(file, 'utf8')) as FindingsFile | PublishedFindings;
  return 'schema' in json && json.schema === PUBLISHED_SCHEMA ? fromPublished(json) : (json as FindingsFile);
}

/**
 * A published record read as an evaluated one: its verdicts, and its parts and speed probes where
 * it kept them (a file published before they were kept compares by verdict alone).
 */
export function fromPublished(p: PublishedFindings): FindingsFile {
  return {
    plan: { mode: p.mode },
    record: { startedAt: p.startedAt, mode: p.mode },
    ...(p.speeds ? { speeds: p.speeds } : {}),
    results: p.claims.map((c) => ({ claim: { id: c.id, title: c.title }, verdict: c.verdict, parts: c.parts ?? [] })),
  };
}

const evidenceKind = (e: Evidence | null | undefined): string | null => {
  if (!e) return null;
  if (e.kind === 'measured-scaled') return `measured-scaled (s = ${e.s.toPrecision(3)})`;
  if (e.kind === 'predicted') return `predicted (${e.model})`;
  return `measured-unscaled (${e.sutCpus} CPU${e.sutCpus === 1 ? '' : 's'})`;
};

const effectOf = (d: Effect | null | undefined): Effect | null => (d ? { diff: d.diff, lo: d.lo, hi: d.hi } : null);
const sameEffect = (a: Effect | null, b: Effect | null): boolean => JSON.stringify(a) === JSON.stringify(b);
const partKey = (p: ComparablePart): string => `${p.test.reads} @ ${p.test.level} (${p.test.metric}, B − A ${p.test.expect})`;

function parts(a: FindingsFile['results'][number] | undefined, b: FindingsFile['results'][number] | undefined): PartDifference[] {
  const byKey = (r: typeof a) => new Map((r?.parts ?? []).map((p) => [partKey(p), p]));
  const pa = byKey(a);
  const pb = byKey(b);
  const keys = [...new Set([...pa.keys(), ...pb.keys()])];
  return keys.map((k) => {
    const x = pa.get(k);
    const y = pb.get(k);
    return { part: k, verdict: [x?.verdict.verdict ?? null, y?.verdict.verdict ?? null], effect: [effectOf(x?.difference), effectOf(y?.difference)], evidence: [evidenceKind(x?.evidence), evidenceKind(y?.evidence)] } as PartDifference;
  });
}

/** The parts that differ in verdict, effect or evidence (an effect read from the same runs differs in nothing). */
const differs = (d: PartDifference): boolean => d.verdict[0] !== d.verdict[1] || !sameEffect(d.effect[0], d.effect[1]) || d.evidence[0] !== d.evidence[1];

export function speedSummary(f: FindingsFile): SpeedSummary {
  const probes: SpeedSummary['probes'] = [];
  for (const [cell, speed] of Object.entries(f.speeds ?? {})) {
    if (!speed) continue;
    const same = probes.find((p) => p.speed.bootId === speed.bootId && p.speed.scryptN14Ms === speed.scryptN14Ms && p.speed.spawnMs === speed.spawnMs);
    if (same) same.cells.push(cell);
    else probes.push({ speed, cells: [cell] });
  }
  return { probes };
}

/** The records' hosts as one probe each: the first probe of each (a record runs on one host). */
const firstProbe = (s: SpeedSummary): MachineSpeed | undefined => s.probes[0]?.speed;

export function compareRecords(a: FindingsFile, b: FindingsFile, names: [string, string]): RecordsComparison {
  const ra = new Map(a.results.map((r) => [r.claim.id, r]));
  const rb = new Map(b.results.map((r) => [r.claim.id, r]));
  const ids = [...new Set([...ra.keys(), ...rb.keys()])];
  const claims = ids.map((id): ClaimComparison => {
    const x = ra.get(id);
    const y = rb.get(id);
    const verdicts: [string | null, string | null] = [x?.verdict ?? null, y?.verdict ?? null];
    const decided = verdicts.every((v) => v !== null && DECIDED.has(v));
    return { id, title: (x ?? y)!.claim.title, verdicts, agree: decided ? verdicts[0] === verdicts[1] : null, differences: parts(x, y).filter(differs) };
  });
  const speeds: [SpeedSummary, SpeedSummary] = [speedSummary(a), speedSummary(b)];
  return {
    schema: 'shellgrade.findings-compare/1',
    records: names,
    modes: [a.record?.mode ?? a.plan?.mode ?? null, b.record?.mode ?? b.plan?.mode ?? null],
    claims,
    agreeOnDecided: claims.every((c) => c.agree !== false),
    bothDecided: claims.filter((c) => c.agree !== null).map((c) => c.id),
    disagree: claims.filter((c) => c.agree === false).map((c) => c.id),
    speeds,
    speedMismatch: speedMismatch(firstProbe(speeds[0]), firstProbe(speeds[1])),
  };
}

const p3 = (x: number | null): string => (x === null ? 'n/a' : x.toPrecision(3));
const effectText = (e: Effect | null): string => (e === null || e.diff === null ? 'n/a' : `${p3(e.diff)} ${e.lo === null ? '(no CI)' : `[${p3(e.lo)}, ${p3(e.hi)}]`}`);
const speedText = (s: SpeedSummary): string =>
  s.probes.length ? s.probes.map((p) => `scrypt 2^14 ${p.speed.scryptN14Ms} ms, spawn ${p.speed.spawnMs} ms${p.speed.bootId ? `, boot ${p.speed.bootId.slice(0, 8)}` : ''} (${p.cells.length} cell${p.cells.length === 1 ? '' : 's'})`).join('; ') : 'not recorded';

export function compareBlocks(c: RecordsComparison): Block[] {
  const [A, B] = c.records;
  const agreement = c.bothDecided.length === 0 ? 'no claim was decided by both' : c.agreeOnDecided ? `they agree on every claim both decide (${c.bothDecided.join(', ')})` : `they disagree on ${c.disagree.join(', ')} of the ${c.bothDecided.length} both decide`;
  return [
    { kind: 'h1', text: `Findings compared: ${A} and ${B}` },
    { kind: 'p', text: `A = ${A} (${c.modes[0] ?? '?'}), B = ${B} (${c.modes[1] ?? '?'}): ${agreement}. Decided means reproduced or refuted.` },
    { kind: 'h2', text: 'Speed probes' },
    { kind: 'list', items: [`A: ${speedText(c.speeds[0])}`, `B: ${speedText(c.speeds[1])}`, c.speedMismatch ?? 'the two hosts probe alike (or one has no probe): their milliseconds may be compared'] },
    { kind: 'h2', text: 'Verdicts' },
    { kind: 'table', head: ['claim', 'A', 'B', 'agree'], rows: c.claims.map((x) => [`(${x.id}) ${x.title}`, x.verdicts[0] ?? '—', x.verdicts[1] ?? '—', x.agree === null ? 'not both decided' : x.agree ? 'yes' : '**no**']) },
    { kind: 'h2', text: 'Differences' },
    ...(c.claims.some((x) => x.differences.length)
      ? [
          {
            kind: 'table',
            head: ['claim', 'part', 'verdict A', 'verdict B', 'B − A in A [95% CI]', 'B − A in B [95% CI]', 'evidence A', 'evidence B'],
            rows: c.claims.flatMap((x) => x.differences.map((d) => [x.id, d.part, d.verdict[0] ?? '—', d.verdict[1] ?? '—', effectText(d.effect[0]), effectText(d.effect[1]), d.evidence[0] ?? '—', d.evidence[1] ?? '—'])),
          } as Block,
        ]
      : [{ kind: 'p', text: 'none: every part has the same verdict, effect and evidence in both' } as Block]),
  ];
}

/** findings-compare.{md,json} in `out`; returns the files. */
export function writeRecordsComparison(c: RecordsComparison, out: string): string[] {
  mkdirSync(out, { recursive: true });
  const files = [join(out, COMPARE_FILES.md), join(out, COMPARE_FILES.json)];
  writeFileSync(files[0], toMarkdown(compareBlocks(c)));
  writeFileSync(files[1], JSON.stringify(c, null, 2) + '\n');
  return files;
}

/** The default output folder: results/findings-compare/<A>-vs-<B>. */
export const compareDir = (a: string, b: string): string => join(resultsDir(), 'findings-compare', `${basename(a)}-vs-${basename(b)}`);
