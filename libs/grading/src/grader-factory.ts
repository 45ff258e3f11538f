/** Builds the Grader a composition root asks for, from the runtime configuration. */
import type { RuntimeConfig } from '@shellgrade/variant';
import type { ArchiveLimits } from './archive-limits';
import type { GraderOptions, SandboxLimits } from './grader-options';
import { SandboxGrader } from './sandbox-grader';

type GraderConfig = Pick<
  RuntimeConfig,
  'SG_PYTHON' | 'SG_SANDBOX_ROOT' | 'SG_GRADER_TIMEOUT_MS' | 'SG_GRADER_EXEC' | 'SG_ISOLATION' | 'SG_MAX_ARCHIVE_BYTES' | 'SG_GRADER_NICE'
>;

export function graderOptionsFromConfig(cfg: GraderConfig, extra: { limits?: Partial<SandboxLimits>; archiveLimits?: Partial<ArchiveLimits> } = {}): GraderOptions {
  return {
    python: cfg.SG_PYTHON,
    sandboxRoot: cfg.SG_SANDBOX_ROOT,
    timeoutMs: cfg.SG_GRADER_TIMEOUT_MS,
    exec: cfg.SG_GRADER_EXEC,
    isolation: cfg.SG_ISOLATION,
    niceness: cfg.SG_GRADER_NICE,
    limits: extra.limits,
    archiveLimits: { maxCompressedBytes: cfg.SG_MAX_ARCHIVE_BYTES, ...extra.archiveLimits },
  };
}

export function createGraderFromConfig(cfg: GraderConfig): SandboxGrader {
  return new SandboxGrader(graderOptionsFromConfig(cfg));
}
