// `bench compare`: load both sides, compare, write compare.{md,html,json} under one folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultStamp, resultsDir } from '../paths';
import { compareSides, type Comparison } from './compare';
import { comparisonHtml, comparisonMarkdown } from './render';
import { loadSide } from './sides';

export interface ComparisonOutput {
  comparison: Comparison;
  markdown: string;
  dir: string;
}

export function writeComparison(comparison: Comparison, dir: string): ComparisonOutput {
  const markdown = comparisonMarkdown(comparison);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'compare.md'), markdown);
  writeFileSync(join(dir, 'compare.html'), comparisonHtml(comparison));
  writeFileSync(join(dir, 'compare.json'), JSON.stringify(comparison, null, 2));
  return { comparison, markdown, dir };
}

export function runComparison(refA: string, refB: string, outDir?: string): ComparisonOutput {
  const comparison = compareSides(loadSide(refA), loadSide(refB));
  return writeComparison(comparison, outDir ?? join(resultsDir(), 'compare', `${resultStamp()}-${comparison.a.variant}-vs-${comparison.b.variant}`));
}
