// Runs recorded before manifests existed: the replayable part of a manifest rebuilt from
// meta.json and spec.yaml. Commit, dirty flag and server versions were not recorded: null.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { TestMeta } from '../types';
import { buildManifest, MANIFEST_FILE, readManifest, type Manifest } from './manifest';

export function reconstructManifest(dir: string): Manifest {
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as TestMeta;
  return buildManifest({
    runId: meta.runId,
    startedAt: meta.startedAt,
    variant: meta.variant,
    spec: parse(readFileSync(join(dir, 'spec.yaml'), 'utf8')) as Record<string, unknown>,
    hasSource: existsSync(join(dir, 'spec.source.yaml')),
    profileName: meta.profileName,
    overrides: {},
    profile: meta.profile,
    machine: meta.machine,
    env: { project: { commit: null, dirty: null, changedFiles: null }, versions: { python: null, servers: {}, pinnedTools: {} } },
  });
}

/** manifest.json when the folder has one, else the reconstruction (and whether it is one). */
export function manifestOrReconstruction(path: string): { manifest: Manifest; reconstructed: boolean } {
  const isFolder = existsSync(join(path, 'meta.json'));
  if (!isFolder || existsSync(join(path, MANIFEST_FILE))) return { manifest: readManifest(path), reconstructed: false };
  return { manifest: reconstructManifest(path), reconstructed: true };
}
