// A suite profile made concrete before the run: a soak's rate from the calibrated saturation
// (70 %), or step rates scaled by --peak. The steps then go to k6 in its options file (steps).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profile } from '../profiles';

export interface SuiteOverrides {
  variant: string;
  /** Soak: the rate itself; other suites: the first step's rate, the others scaled alike. */
  peak?: number;
  /** Soak: the saturation rate whose saturationShare is held. */
  saturation?: number;
  /** Soak: its length (overrides soakS). */
  holdS?: number;
}

/** recommendedPeak of the newest results/<stamp>-<variant>-calibration.json (bench calibrate), or null. */
export function calibratedSaturation(resultsDir: string, variant: string): { rate: number; file: string } | null {
  if (!existsSync(resultsDir)) return null;
  const pattern = new RegExp(`^\\d{8}T\\d{6}Z-${variant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-calibration\\.json$`);
  const newest = readdirSync(resultsDir).filter((f) => pattern.test(f)).sort().pop();
  if (!newest) return null;
  const rate = (JSON.parse(readFileSync(join(resultsDir, newest), 'utf8')) as { recommendedPeak?: number | null }).recommendedPeak;
  return typeof rate === 'number' && rate > 0 ? { rate, file: newest } : null;
}

/** The soak's rate: --peak, else saturationShare × (--saturation or the calibration); k6 rates are integers ≥ 1. */
export function soakRate(share: number, o: SuiteOverrides, calibrated: { rate: number } | null): number {
  if (o.peak !== undefined) return Math.max(1, Math.round(o.peak));
  const saturation = o.saturation ?? calibrated?.rate;
  if (saturation === undefined) {
    throw new Error(`soak of ${o.variant}: no saturation rate — pass --saturation N, or --peak N (the soak rate), or run \`bench calibrate --variant ${o.variant}\` first`);
  }
  return Math.max(1, Math.round(share * saturation));
}

/** The profile with its suite's steps set (and peak/holdS derived); a profile without a suite unchanged. */
export function resolveSuite(profile: Profile, o: SuiteOverrides, calibrated: { rate: number } | null): Profile {
  const suite = profile.suite;
  if (!suite) return profile;
  let steps = suite.steps;
  if (suite.kind === 'soak') {
    steps = [{ rate: soakRate(suite.saturationShare, o, calibrated), holdS: o.holdS ?? suite.soakS ?? steps![0].holdS }];
  } else if (o.peak !== undefined) {
    const factor = o.peak / steps![0].rate;
    steps = steps!.map((s) => ({ ...s, rate: Math.max(1, Math.round(s.rate * factor)) }));
  }
  const holdS = steps!.reduce((sum, s) => sum + s.holdS, 0) + (steps!.length - 1) * suite.transitionS;
  return { ...profile, peak: Math.max(...steps!.map((s) => s.rate)), rampS: 0, holdS, suite: { ...suite, steps } };
}
