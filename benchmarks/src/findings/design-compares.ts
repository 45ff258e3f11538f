// The 2 × 2's four simple effects as full `bench compare` pages (every request type and metric),
// written beside the findings and linked from the 2 × 2 table.
import { join } from 'node:path';
import { compareSides } from '../compare/compare';
import type { Side } from '../compare/sides';
import { writeComparison } from '../compare/write';
import type { Role } from './claims';

const EFFECTS: { a: Role; b: Role; label: string }[] = [
  { a: 'mon-blocking', b: 'msa-blocking', label: 'architecture with the blocking grader' },
  { a: 'mon-async', b: 'msa-async', label: 'architecture with async graders' },
  { a: 'mon-blocking', b: 'mon-async', label: 'grader execution in the monolith' },
  { a: 'msa-blocking', b: 'msa-async', label: 'grader execution in MSA' },
];

export interface CompareLink {
  label: string;
  /** Relative to the findings folder. */
  href: string;
}

export function writeDesignCompares(cells: Partial<Record<Role, Side>>, dir: string): CompareLink[] {
  const links: CompareLink[] = [];
  for (const e of EFFECTS) {
    const a = cells[e.a];
    const b = cells[e.b];
    if (!a || !b) continue;
    const name = `${a.result.aggregated.meta.variant}-vs-${b.result.aggregated.meta.variant}`;
    writeComparison(compareSides(a, b), join(dir, 'compare', name));
    links.push({ label: `${e.label}: ${name.replace('-vs-', ' vs ')}`, href: `compare/${name}/compare.html` });
  }
  return links;
}
