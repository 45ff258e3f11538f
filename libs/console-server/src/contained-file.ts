/**
 * A file the console serves out of a results folder: named by path segments a shell would not
 * read otherwise, of a type it serves, and only when its real path stays inside the root (a
 * symlink in a run folder may lead anywhere). Served HTML and SVG run their scripts in an opaque
 * origin (CSP sandbox: no cookie, no same-origin API), every type as declared (nosniff). The run
 * files (ops-results.ts) and the findings and faults reports (ops-findings-files.ts) go through
 * this one check.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import type { Response } from 'express';
import { FRAME_ANCESTORS_NONE } from '@shellgrade/http';

/** A path segment of a served file: no "..", no leading dot, nothing a shell or a URL reads otherwise. */
export const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/** The report types: what a findings or faults folder serves. */
export const REPORT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/**
 * Sends `folder`/`file` when every segment of `file` is a SEGMENT, its extension one of `types`,
 * and its real path a file inside `root`'s real path; false when it did not (the caller answers 404).
 */
export function sendContainedFile(res: Response, root: string, folder: string, file: readonly string[], types: Readonly<Record<string, string>>): boolean {
  if (file.length === 0 || !file.every((s) => SEGMENT.test(s))) return false;
  const type = types[extname(file[file.length - 1]!).toLowerCase()];
  if (!type) return false;
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(join(folder, ...file));
  } catch {
    return false;
  }
  // A symlink may still lead out of the results folder: its real path decides.
  if (!real.startsWith(realRoot + sep) || !statSync(real).isFile()) return false;
  res.setHeader('Content-Type', type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // A report's scripts (k6's dashboard) run, but in an opaque origin: no cookie, no same-origin API.
  if (type.startsWith('text/html') || type === 'image/svg+xml') res.setHeader('Content-Security-Policy', `sandbox allow-scripts allow-popups; ${FRAME_ANCESTORS_NONE}`);
  res.end(readFileSync(real));
  return true;
}
