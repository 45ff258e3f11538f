import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseDpkg, parsePins } from '../../src/provenance/facts';
import { manifestOrReconstruction } from '../../src/provenance/legacy';
import { completeManifest, MANIFEST_FILE, readManifest, writeManifest } from '../../src/provenance/manifest';
import { protocolOverrides, writeRunManifest } from '../../src/provenance/record';
import { MACHINE, manifest, SMALL, SPEC } from './fixtures';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-manifest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('run manifest', () => {
  it('carries commit, resolved spec, profile with overrides, versions, machine, seeds', () => {
    const m = manifest({ overrides: { peak: 12, tracing: 'on', runs: undefined } });
    expect(m.project).toEqual({ commit: '6fa874f749d1f09db253727e414da9c24750793a', dirty: false, changedFiles: 0 });
    expect(m.variant).toEqual({ name: 'naked-mon', spec: SPEC, specFile: 'spec.yaml', sourceFile: 'spec.source.yaml' });
    expect(m.profile).toEqual({ name: 'small', overrides: { peak: 12, tracing: 'on' }, effective: SMALL });
    // An option not given is not recorded as one (undefined keys would read as "overridden").
    expect(Object.keys(m.profile.overrides)).toEqual(['peak', 'tracing']);
    expect(m.versions).toMatchObject({ k6: 'k6 v1.8.1', node: 'v20.20.2', python: '3.11.7', servers: { postgresql: '15+248' } });
    expect(m.machine).toMatchObject({ cores: 2, memBytes: 25276510208, kernel: '6.18.44' });
    expect(m.seeds.students).toBe(200);
    expect(m.seeds.k6).toMatch(/unseeded/);
    expect(m.endedAt).toBeNull();
  });

  it('round-trips through the file, read from the file or from its run folder', () => {
    const m = manifest();
    writeManifest(dir, m);
    expect(readManifest(join(dir, MANIFEST_FILE))).toEqual(m);
    expect(readManifest(dir)).toEqual(m);
  });

  it('refuses a file that is not a manifest, and says when there is none', () => {
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ schema: 'something-else', runId: 'x' }));
    expect(() => readManifest(dir)).toThrow(/not a shellgrade.run-manifest\/1/);
    expect(() => readManifest(join(dir, 'nope'))).toThrow(/no manifest/);
  });

  it('is completed at the end with the end time and the raw files in the folder', () => {
    writeManifest(dir, manifest());
    for (const f of ['run-1.json', 'run-2.json', 'k6-options-run-1.json', 'k6-options-warmup.json', 'k6-run-1.json', 'k6-run-1.log', 'sps-samples-run-1.jsonl', 'resources.json', 'resources.csv', 'aggregated.json', 'users.csv', 'k6-dashboard-run-1.html']) writeFileSync(join(dir, f), '{}');
    const m = completeManifest(dir, '2026-11-25T00:37:00.000Z')!;
    expect(m.endedAt).toBe('2026-11-25T00:37:00.000Z');
    expect(m.raw).toEqual(['k6-options-run-1.json', 'k6-run-1.json', 'k6-run-1.log', 'resources.csv', 'resources.json', 'run-1.json', 'run-2.json', 'sps-samples-run-1.jsonl']);
    expect(readManifest(dir).raw).toEqual(m.raw);
    expect(completeManifest(join(dir, 'absent'), 'x')).toBeNull();
  });

  it("keeps only the protocol-changing options of a run's options", () => {
    const opts = { variant: 'naked-mon', profile: 'small', runs: 2, peak: undefined, keepUp: true, hooks: {}, arrivals: 'exponential' as const, dashboard: false };
    expect(protocolOverrides(opts)).toStrictEqual({ runs: 2, arrivals: 'exponential' });
  });

  it('the runner step writes manifest.json from spec.yaml and the live environment', async () => {
    writeFileSync(join(dir, 'spec.yaml'), stringify(SPEC));
    const m = await writeRunManifest({ dir, runId: 'r', startedAt: 'now', variant: 'naked-mon', profileName: 'small', overrides: { runs: 1 }, profile: SMALL, machine: MACHINE });
    expect(m.variant.spec).toEqual(SPEC);
    expect(m.variant.sourceFile).toBeNull();
    expect(m.project.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(typeof m.project.dirty).toBe('boolean');
    expect(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'))).toEqual(m);
  });

  it('parses dpkg versions (absent packages null) and the pinned Go tools', () => {
    expect(parseDpkg('haproxy 2.6.12-1+deb12u4\npostgresql 15+248+deb12u1\n', ['postgresql', 'haproxy', 'redis-server'])).toEqual({ postgresql: '15+248+deb12u1', haproxy: '2.6.12-1+deb12u4', 'redis-server': null });
    expect(parsePins('# x\nK6_MODULE=go.k6.io/k6@v1.8.1\nJAEGER_MODULE=github.com/jaegertracing/jaeger@v1.76.0\nbuild_k6() { x; }\n')).toEqual({ k6: 'go.k6.io/k6@v1.8.1', jaeger: 'github.com/jaegertracing/jaeger@v1.76.0' });
  });
});

describe('runs recorded before manifests', () => {
  it('are rebuilt from meta.json and spec.yaml, commit unknown', () => {
    const meta = { runId: 'old', variant: 'naked-mon', profileName: 'small', profile: SMALL, startedAt: '2026-11-25T00:31:58.844Z', machine: MACHINE };
    writeFileSync(join(dir, 'meta.json'), JSON.stringify(meta));
    writeFileSync(join(dir, 'spec.yaml'), stringify(SPEC));
    const { manifest: m, reconstructed } = manifestOrReconstruction(dir);
    expect(reconstructed).toBe(true);
    expect(m).toMatchObject({ runId: 'old', variant: { name: 'naked-mon', spec: SPEC, sourceFile: null }, profile: { name: 'small', effective: SMALL }, project: { commit: null, dirty: null } });
    writeManifest(dir, manifest());
    expect(manifestOrReconstruction(dir).reconstructed).toBe(false);
  });
});
