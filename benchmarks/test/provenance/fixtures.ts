import type { MachineFacts } from '../../src/machine';
import type { Profile } from '../../src/profiles';
import type { EnvironmentFacts } from '../../src/provenance/facts';
import { buildManifest, type Manifest, type ProtocolOverrides } from '../../src/provenance/manifest';

export const SMALL: Profile = { peak: 9, rampS: 20, holdS: 40, runs: 3, betweenRunsS: 10, pauseS: 5, students: 200, thresholds: false, connectionReuse: false, arrivals: 'even' };

export const MACHINE: MachineFacts = { cpuModel: 'AMD EPYC', cores: 2, memBytes: 25276510208, kernel: '6.18.44', os: 'Linux', node: 'v20.20.2', k6: 'k6 v1.8.1', energy: 'absent', schedAutogroup: 'on' };

export const ENV: EnvironmentFacts = {
  project: { commit: '6fa874f749d1f09db253727e414da9c24750793a', dirty: false, changedFiles: 0 },
  versions: { python: '3.11.7', servers: { postgresql: '15+248', haproxy: '2.6.12' }, pinnedTools: { k6: 'go.k6.io/k6@v1.8.1' } },
};

export const SPEC = { name: 'naked-mon', topology: 'monolith', grader: { exec: 'blocking' }, tracing: { enabled: false } };

export function manifest(over: { profile?: Profile; overrides?: ProtocolOverrides; env?: EnvironmentFacts; profileName?: string } = {}): Manifest {
  return buildManifest({
    runId: '20261125T003150Z-naked-mon-small',
    startedAt: '2026-11-25T00:31:00.000Z',
    variant: 'naked-mon',
    spec: SPEC,
    hasSource: true,
    profileName: over.profileName ?? 'small',
    overrides: over.overrides ?? {},
    profile: over.profile ?? SMALL,
    machine: MACHINE,
    env: over.env ?? ENV,
  });
}
