// Which presets stand for the paper's configurations: a preset whose own file names one of the
// tables' configurations in its `paper:` field (infra/variants/*.yaml). A preset that inherits
// the field through `extends` (dev from naked-mon, msa-2-2-2 from msa-2-4-4) changes something
// the paper did not, so only the file that declares the field counts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listVariants, variantsDir } from '@shellgrade/variant';
import { parse } from 'yaml';
import { PAPER_000_CONFIGURATIONS, type PaperConfiguration } from './paper-000';

export interface ReproducedConfiguration extends PaperConfiguration {
  /** The preset run for it. */
  variant: string;
}

export interface Coverage {
  covered: ReproducedConfiguration[];
  /** Configurations of the tables no preset declares: they are left out of the scorecard, named. */
  missing: string[];
}

/** `paper.configuration` of each preset that declares paper 000 itself, by preset name. */
export function declaredConfigurations(dir = variantsDir()): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of listVariants(dir)) {
    const own = parse(readFileSync(join(dir, `${name}.yaml`), 'utf8')) as { paper?: { source?: string; configuration?: string } } | null;
    if (own?.paper?.configuration && own.paper.source?.startsWith('000')) out.set(name, own.paper.configuration);
  }
  return out;
}

/** The tables' configurations in the paper's order (Table I, then Table II's new ones), each with its preset. */
export function paperCoverage(declared: Map<string, string> = declaredConfigurations(), configurations = PAPER_000_CONFIGURATIONS): Coverage {
  const byLabel = new Map<string, string>();
  for (const [variant, label] of [...declared].sort(([a], [b]) => a.localeCompare(b))) if (!byLabel.has(label)) byLabel.set(label, variant);
  const covered: ReproducedConfiguration[] = [];
  const missing: string[] = [];
  for (const c of configurations) {
    const variant = byLabel.get(c.label);
    if (variant) covered.push({ ...c, variant });
    else missing.push(c.label);
  }
  return { covered, missing };
}
