/**
 * @opentelemetry/instrumentation-nestjs-core 0.70 (the last line supporting Node 20)
 * declares `>=4 <12` and hooks Nest's internal files through require. Nest 12 is
 * ESM-only: our CommonJS services load it with require(esm), so only the package entry
 * passes the require hook and its internal imports never do. We widen the version range
 * and, when the entry is required, apply the upstream file patches to the same (cached)
 * ESM modules, loaded by their public subpaths. Patched internals are unchanged in 12.
 */
import { createRequire } from 'node:module';
import type { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';

export const NEST_SUPPORTED_VERSIONS = ['>=4.0.0 <13'];

export class NestInstrumentation12 extends NestInstrumentation {
  override init(): InstrumentationNodeModuleDefinition {
    const definition = super.init();
    definition.supportedVersions = NEST_SUPPORTED_VERSIONS;
    for (const file of definition.files) file.supportedVersions = NEST_SUPPORTED_VERSIONS;
    definition.patch = (exports: unknown, version?: string) => {
      const load = createRequire(require.resolve('@nestjs/core'));
      for (const file of definition.files) {
        const internal = load(file.name) as unknown;
        file.patch(internal, version);
      }
      return exports;
    };
    return definition;
  }
}
