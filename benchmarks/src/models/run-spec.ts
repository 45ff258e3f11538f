// The spec a run folder ran (spec.yaml), validated with today's schema.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadVariant, validateVariant, type VariantSpec } from '@shellgrade/variant';

/**
 * spec.yaml of the run; when today's schema rejects it (a folder written before a rename, e.g.
 * `dispatch: http` → `inline`), the preset of the same name, said so on stderr.
 */
export function runSpec(dir: string, variant: string): VariantSpec {
  const file = join(dir, 'spec.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no spec.yaml`);
  try {
    return validateVariant(parseYaml(readFileSync(file, 'utf8')), file);
  } catch (err) {
    console.error(`warning: ${file} does not validate today (${err instanceof Error ? err.message.split('\n')[0] : err}); using preset ${variant}`);
    return loadVariant(variant);
  }
}
