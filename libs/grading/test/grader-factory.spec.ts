import { loadRuntimeConfig } from '@shellgrade/variant';
import { graderOptionsFromConfig } from '../src/grader-factory';

describe('graderOptionsFromConfig', () => {
  it('maps the SG_* variables onto the grader options', () => {
    const cfg = loadRuntimeConfig({
      SG_PYTHON: '/opt/py/bin/python3',
      SG_SANDBOX_ROOT: '/var/tmp/sb',
      SG_GRADER_TIMEOUT_MS: '2500',
      SG_GRADER_EXEC: 'blocking',
      SG_ISOLATION: 'none',
      SG_MAX_ARCHIVE_BYTES: '65536',
      SG_GRADER_NICE: '7',
    });
    expect(graderOptionsFromConfig(cfg)).toEqual({
      python: '/opt/py/bin/python3',
      sandboxRoot: '/var/tmp/sb',
      timeoutMs: 2500,
      exec: 'blocking',
      isolation: 'none',
      niceness: 7,
      limits: undefined,
      archiveLimits: { maxCompressedBytes: 65536 },
    });
  });

  it('defaults to async + bwrap with the pyenv interpreter', () => {
    const opts = graderOptionsFromConfig(loadRuntimeConfig({}));
    expect([opts.exec, opts.isolation, opts.python]).toEqual(['async', 'bwrap', '/root/.pyenv/versions/3.11.7/bin/python3']);
  });
});
