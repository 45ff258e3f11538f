// PSS of the variant's own processes over a run (the soak verdict, the memory chart). Native
// servers (PostgreSQL grows its cache under load by design) and k6 are left out.
import { mean } from 'simple-statistics';
import { underTest, type ResourceSample } from '../resource-sampler';

export interface PssSample {
  group: string;
  epochMs: number;
  pssBytes: number;
}

/** Mean PSS of the samples taken in [fromMs, toMs), null when none was. */
export function meanPss(samples: PssSample[], fromMs: number, toMs: number): number | null {
  const xs = samples.filter((s) => s.epochMs >= fromMs && s.epochMs < toMs).map((s) => s.pssBytes);
  return xs.length ? mean(xs) : null;
}

export function variantPss(samples: ResourceSample[]): PssSample[] {
  return samples.filter((s) => underTest(s) && s.role !== 'server').map((s) => ({ group: s.group, epochMs: s.epochMs, pssBytes: s.pssBytes }));
}

export interface MemorySeries {
  /** Window starts, seconds from the start of the load. */
  t: number[];
  /** Mean PSS per group and window (null: no sample in the window). */
  groups: { name: string; bytes: (number | null)[] }[];
}

export function memorySeries(pss: PssSample[], loadFromMs: number, fromS: number, toS: number, windowS: number): MemorySeries {
  const t: number[] = [];
  for (let a = fromS; a < toS - 1e-9; a += windowS) t.push(a);
  const names = [...new Set(pss.map((s) => s.group))].sort();
  const groups = names.map((name) => {
    const own = pss.filter((s) => s.group === name);
    return { name, bytes: t.map((a) => meanPss(own, loadFromMs + a * 1000, loadFromMs + Math.min(toS, a + windowS) * 1000)) };
  });
  return { t, groups };
}
