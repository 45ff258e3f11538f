// Paper 000's own numbers (ShellOnYou, §V), transcribed from /work/shared/papers/000_*.txt so a
// reproduction can be compared with them configuration by configuration. Shares are fractions
// (61.5 % → 0.615); null where the paper prints no figure for that configuration. The test
// fixture benchmarks/test/fixtures/paper-000-table-1.tsv holds Table I's availability rows as the
// PDF prints them; a unit test holds the two to each other.

/** One configuration's figures in Table I or II, at 200 new users/s. */
export interface PaperFigures {
  /** Request Acceptance Capability. */
  rac: number;
  /** Failure Rate (Table II does not print it). */
  fr: number | null;
  /** Effective Failure Rate, (N − OK)/N as published. */
  efr: number;
  /** FR of Req-SPS (Table I only). */
  spsFr: number | null;
  /** EFR of Req-SPS. */
  spsEfr: number;
  /** Share of successful requests under 800 ms, 800–1200 ms, 1200 ms and over. */
  lt800: number;
  b800_1200: number;
  ge1200: number;
  /** Application Performance Index (Table I only). */
  apdex: number | null;
  /** System throughput, OK/s. */
  throughput: number;
}

/** A configuration of the paper's tables: its label as printed and the table(s) it appears in. */
export interface PaperConfiguration {
  /** As the paper labels it ("Naked MON", "MON×4", "MSA-1-1", "MSA-2-4-4"); the presets' `paper.configuration`. */
  label: string;
  tables: ('I' | 'II')[];
  figures: PaperFigures;
}

/** Table I: RQ1 results — Naked MON, MON × X and MSA-1-1. */
const TABLE_I: Record<string, PaperFigures> = {
  'Naked MON': { rac: 0.5293, fr: 0.2726, efr: 0.615, spsFr: 0.9554, spsEfr: 0.9776, lt800: 0.4366, b800_1200: 0.1192, ge1200: 0.4442, apdex: 0.56, throughput: 459.74 },
  'MON×1': { rac: 0.7022, fr: 0.1816, efr: 0.4253, spsFr: 0.9828, spsEfr: 0.9892, lt800: 0.3616, b800_1200: 0.1129, ge1200: 0.5255, apdex: 0.55, throughput: 636.05 },
  'MON×4': { rac: 0.7636, fr: 0.106, efr: 0.3173, spsFr: 0.4679, spsEfr: 0.6252, lt800: 0.7836, b800_1200: 0.0667, ge1200: 0.1497, apdex: 0.79, throughput: 764.59 },
  'MON×8': { rac: 1, fr: 0, efr: 0, spsFr: 0, spsEfr: 0, lt800: 0.9668, b800_1200: 0.0066, ge1200: 0.0266, apdex: 0.98, throughput: 1198.91 },
  'MON×12': { rac: 1, fr: 0, efr: 0, spsFr: 0, spsEfr: 0, lt800: 0.9839, b800_1200: 0.0035, ge1200: 0.0126, apdex: 0.99, throughput: 1202.05 },
  'MSA-1-1': { rac: 0.9408, fr: 0.1218, efr: 0.1738, spsFr: 0.9622, spsEfr: 0.9662, lt800: 0.8547, b800_1200: 0.0755, ge1200: 0.0698, apdex: 0.89, throughput: 958.18 },
};

/** Table II: RQ2 results — MSA X-Y (X Leftover, Y Exercise replicas; 2-4-4 with two gateways). No FR, FR (Req-SPS) or Apdex rows. */
const TABLE_II: Record<string, Omit<PaperFigures, 'fr' | 'spsFr' | 'apdex'>> = {
  'MSA-1-1': { rac: 0.9408, efr: 0.1738, spsEfr: 0.9662, lt800: 0.8547, b800_1200: 0.0755, ge1200: 0.0698, throughput: 958 },
  'MSA-1-2': { rac: 0.9867, efr: 0.1072, spsEfr: 0.8928, lt800: 0.9582, b800_1200: 0.0206, ge1200: 0.0212, throughput: 1039 },
  'MSA-2-2': { rac: 0.9877, efr: 0.0648, spsEfr: 0.8457, lt800: 0.9362, b800_1200: 0.0079, ge1200: 0.0559, throughput: 1087 },
  'MSA-1-4': { rac: 1, efr: 0, spsEfr: 0, lt800: 0.753, b800_1200: 0.0262, ge1200: 0.2208, throughput: 1205 },
  'MSA-4-4': { rac: 1, efr: 0, spsEfr: 0, lt800: 0.8976, b800_1200: 0.0313, ge1200: 0.0711, throughput: 1207 },
  'MSA-1-8': { rac: 1, efr: 0, spsEfr: 0, lt800: 0.7554, b800_1200: 0.0183, ge1200: 0.2263, throughput: 1195 },
  'MSA-8-8': { rac: 1, efr: 0, spsEfr: 0, lt800: 0.8312, b800_1200: 0.1052, ge1200: 0.0636, throughput: 1205 },
  'MSA-1-12': { rac: 1, efr: 0, spsEfr: 0, lt800: 0.7455, b800_1200: 0.0246, ge1200: 0.2299, throughput: 1198 },
  'MSA-12-12': { rac: 1, efr: 0, spsEfr: 0, lt800: 0.7621, b800_1200: 0.1387, ge1200: 0.0992, throughput: 1195 },
  'MSA-2-4-4': { rac: 1, efr: 0, spsEfr: 0, lt800: 1, b800_1200: 0, ge1200: 0, throughput: 1210 },
};

/** Every configuration of Tables I and II once (MSA-1-1 is in both; Table I's figures, which carry FR and Apdex). */
export const PAPER_000_CONFIGURATIONS: PaperConfiguration[] = [
  ...Object.entries(TABLE_I).map(([label, figures]) => ({ label, tables: label in TABLE_II ? (['I', 'II'] as const).slice() : (['I'] as const).slice(), figures })),
  ...Object.entries(TABLE_II)
    .filter(([label]) => !(label in TABLE_I))
    .map(([label, f]) => ({ label, tables: ['II' as const], figures: { ...f, fr: null, spsFr: null, apdex: null } })),
];

/**
 * Table III: memory (mean − minimum of the configuration's use, % of the server's 128 GB) and
 * energy (Wh, a physical power meter) of six configurations. MSA-1-4's energy is in the text
 * (§V-C: "82 vs 77 w/h"), not in the extracted table.
 */
export const PAPER_000_TABLE_III: { label: string; memoryPct: number; energyWh: number }[] = [
  { label: 'Naked MON', memoryPct: 0.99, energyWh: 60 },
  { label: 'MON×8', memoryPct: 1.34, energyWh: 82 },
  { label: 'MON×12', memoryPct: 1.76, energyWh: 86 },
  { label: 'MSA-1-1', memoryPct: 1.87, energyWh: 70 },
  { label: 'MSA-1-4', memoryPct: 1.38, energyWh: 77 },
  { label: 'MSA-2-4-4', memoryPct: 1.07, energyWh: 80 },
];

/** The load every figure above was measured at: 200 new users/s (60 s ramp + 60 s hold, 10 runs a test). */
export const PAPER_000_USERS_PER_S = 200;
