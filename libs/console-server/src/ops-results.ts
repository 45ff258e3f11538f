/**
 * The researchers' console reads, beside the Jaeger relay and gated like it (a staff account,
 * the scrape token or a loopback caller straight to the service, unless http.opsAccess is
 * `public`; 404 otherwise):
 *
 *   GET /ops/presets              the presets (computed by the wiring from the spec, served as data:
 *                                 this adapter does not read the spec)
 *   GET /ops/runs                 the benchmark runs under the results folder, newest first: their
 *                                 meta.json / aggregated.json facts and the report files they hold
 *   GET /ops/runs/<id>/<file>     one file of a run folder, read-only (html, md, json, png, svg),
 *                                 never outside the results folder; HTML is sandboxed (its scripts
 *                                 run in an opaque origin: no cookie, no API of this origin)
 *   GET /ops/runs/<id>/           the run folder's index: its report files, linked relatively — what
 *                                 a report's relative link to a run folder ("../../<id>/", findings.html)
 *                                 opens in the console, as a file browser opens the folder on disk
 *
 * /ops/runs/ mirrors the results folder: a report that links a run relatively works from the disk
 * and from the console alike (the findings reports are served at /ops/runs/findings/<id>/, admins
 * only, ops-findings.ts).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Request, Response } from 'express';
import { REPORT_TYPES, SEGMENT, sendContainedFile } from './contained-file';
import { RUN_ID, type PresetSummary, type RunList, type RunSummary } from '@shellgrade/console-contract';
import { z } from 'zod';
import { FRAME_ANCESTORS_NONE, mayReadOps, type OpsAccess, problem, sendProblem } from '@shellgrade/http';

export type { PresetSummary, RunSummary };

export interface OpsResultsOptions {
  opsAccess: OpsAccess;
  /** Read on the first request (listing the presets parses every spec file: not on every process start). */
  presets?: () => PresetSummary[];
  /** The benchmark results folder; undefined: no run listing. */
  resultsDir?: string;
}

/** A run folder serves its figures too. */
const RUN_FILE_TYPES: Record<string, string> = { ...REPORT_TYPES, '.png': 'image/png', '.svg': 'image/svg+xml' };
/** Listed as report files (json files are served but only these two listed). */
const LISTED = /\.(html|md|png|svg)$|^(meta|aggregated|cancelled)\.json$/;

const metaSchema = z.object({
  variant: z.string().optional(),
  profileName: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
});
const aggregatedSchema = z.object({
  runsAsked: z.number().optional(),
  validRuns: z.number().optional(),
  valid: z.boolean().optional(),
  meta: metaSchema.optional(),
});

/** Handles /ops/presets and /ops/runs[/...]; false when the path is none of them. */
export function serveOpsResults(req: Request, res: Response, opts: OpsResultsOptions): boolean {
  const path = req.path;
  if (path !== '/ops/presets' && path !== '/ops/runs' && !path.startsWith('/ops/runs/')) return false;
  if (!mayReadOps(req, opts.opsAccess)) {
    sendProblem(res, problem(404, 'not found'));
    return true;
  }
  res.setHeader('Cache-Control', 'no-store');
  if (path === '/ops/presets') {
    if (!opts.presets) sendProblem(res, problem(404, 'this entry point lists no presets'));
    else res.json({ presets: opts.presets() });
  } else if (path === '/ops/runs') {
    if (!opts.resultsDir) sendProblem(res, problem(404, 'this entry point has no results folder'));
    else res.json({ resultsDir: opts.resultsDir, runs: listRuns(opts.resultsDir) } satisfies RunList);
  } else {
    serveRunFile(res, opts.resultsDir, path.slice('/ops/runs/'.length));
  }
  return true;
}

export function listRuns(resultsDir: string): RunSummary[] {
  if (!existsSync(resultsDir)) return [];
  const runs: RunSummary[] = [];
  for (const entry of readdirSync(resultsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !RUN_ID.test(entry.name)) continue;
    const dir = join(resultsDir, entry.name);
    const meta = readJson(join(dir, 'meta.json'), metaSchema);
    const agg = readJson(join(dir, 'aggregated.json'), aggregatedSchema);
    const m = meta ?? agg?.meta;
    const files = reportFiles(dir);
    // A run cancelled from the console is INVALID whatever its files say (ops-launch.ts).
    const cancelled = existsSync(join(dir, 'cancelled.json'));
    if (!m && files.length === 0) continue;
    runs.push({
      id: entry.name,
      variant: m?.variant ?? null,
      profile: m?.profileName ?? null,
      startedAt: m?.startedAt ?? null,
      endedAt: m?.endedAt ?? agg?.meta?.endedAt ?? null,
      runsAsked: agg?.runsAsked ?? null,
      validRuns: agg?.validRuns ?? null,
      valid: cancelled ? false : (agg?.valid ?? null),
      files,
    });
  }
  return runs.sort((a, b) => (b.startedAt ?? b.id).localeCompare(a.startedAt ?? a.id) || b.id.localeCompare(a.id));
}

function readJson<T>(file: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The listed files of a run folder and of its sub-folders (one level: report/). */
function reportFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && LISTED.test(entry.name)) files.push(entry.name);
    else if (entry.isDirectory() && SEGMENT.test(entry.name)) {
      for (const inner of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
        if (inner.isFile() && LISTED.test(inner.name)) files.push(`${entry.name}/${inner.name}`);
      }
    }
  }
  return files.sort();
}

function serveRunFile(res: Response, resultsDir: string | undefined, rest: string): void {
  const notFound = () => sendProblem(res, problem(404, 'no such run file'));
  if (!resultsDir) return notFound();
  let segments: string[];
  try {
    segments = rest.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return notFound();
  }
  const [id, ...file] = segments;
  if (id && RUN_ID.test(id) && file.length === 1 && file[0] === '') return serveRunIndex(res, resultsDir, id);
  if (!id || !RUN_ID.test(id) || file.length > 2 || !sendContainedFile(res, resultsDir, join(resultsDir, id), file, RUN_FILE_TYPES)) return notFound();
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A run folder's report files as a page of relative links (sandboxed like every served HTML). */
function serveRunIndex(res: Response, resultsDir: string, id: string): void {
  let dir: string;
  try {
    const root = realpathSync(resultsDir);
    dir = realpathSync(join(resultsDir, id));
    if (!dir.startsWith(root + sep) || !statSync(dir).isDirectory()) throw new Error('outside');
  } catch {
    return sendProblem(res, problem(404, 'no such run folder'));
  }
  const items = reportFiles(dir).map((f) => `<li><a href="${f.split('/').map((s) => escapeHtml(encodeURIComponent(s))).join('/')}">${escapeHtml(f)}</a></li>`);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', `sandbox allow-popups; ${FRAME_ANCESTORS_NONE}`);
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(id)}</title></head><body><h1>${escapeHtml(id)}</h1>${items.length ? `<ul>${items.join('')}</ul>` : '<p>No report file in this run folder.</p>'}</body></html>`);
}
