/**
 * Reads variant specs from infra/variants/<name>.yaml. A file may say `extends: <preset>` and
 * override a few fields; objects merge key by key, except `replicas` (a topology's replica set
 * is replaced whole) and the per-file identity fields name/description/paper (never inherited,
 * so a derived preset cannot claim its parent's paper configuration).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { variantSpecSchema, type VariantSpec } from './spec';

export class VariantSpecError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'VariantSpecError';
  }
}

const NOT_INHERITED = new Set(['name', 'description', 'paper', 'extends']);
const REPLACED_WHOLE = new Set(['replicas']);

type Raw = Record<string, unknown>;

/** The folder holding the presets: $SG_VARIANTS_DIR, else infra/variants of the enclosing repo. */
export function variantsDir(): string {
  if (process.env.SG_VARIANTS_DIR) return resolve(process.env.SG_VARIANTS_DIR);
  // Works from the sources (libs/variant/src) and from the build (dist/libs/variant/src).
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'infra', 'variants');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new VariantSpecError(`no infra/variants folder above ${__dirname}; set SG_VARIANTS_DIR`);
    dir = parent;
  }
}

/** Names of every preset in the folder, sorted. */
export function listVariants(dir = variantsDir()): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** Loads, merges (`extends`) and validates a spec by preset name or by file path. */
export function loadVariant(nameOrPath: string, dir = variantsDir()): VariantSpec {
  const file = resolveSpecFile(nameOrPath, dir);
  const raw = readMerged(file, []);
  return validateVariant(raw, file);
}

/** Validates an already-parsed spec object; `source` only decorates the error message. */
export function validateVariant(raw: unknown, source = 'variant spec'): VariantSpec {
  const parsed = variantSpecSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.flatMap(formatIssue);
  throw new VariantSpecError(`${source}: invalid variant spec\n  ${lines.join('\n  ')}`, source);
}

function formatIssue(issue: z.core.$ZodIssue): string[] {
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${at ? `${at}.` : ''}${key}: unknown field`);
  }
  // A record key that fails its own schema: report the key's message, not zod's generic one.
  const message = issue.code === 'invalid_key' ? issue.issues.map((i) => i.message).join('; ') : issue.message;
  return [`${at || '(spec)'}: ${message}`];
}

function resolveSpecFile(nameOrPath: string, dir: string): string {
  const looksLikePath = nameOrPath.includes('/') || ['.yaml', '.yml'].includes(extname(nameOrPath));
  const file = looksLikePath ? (isAbsolute(nameOrPath) ? nameOrPath : resolve(nameOrPath)) : join(dir, `${nameOrPath}.yaml`);
  if (!existsSync(file)) {
    const known = existsSync(dir) ? listVariants(dir).join(', ') : '(none)';
    throw new VariantSpecError(`unknown variant '${nameOrPath}': no file ${file} (known: ${known})`, file);
  }
  return file;
}

function readMerged(file: string, chain: string[]): Raw {
  if (chain.includes(file)) {
    throw new VariantSpecError(`extends: cycle ${[...chain, file].map((f) => basename(f, '.yaml')).join(' -> ')}`, file);
  }
  const own = readYaml(file);
  const ownName = typeof own.name === 'string' ? own.name : basename(file, extname(file));
  const parentName = own.extends;
  if (parentName === undefined) return { ...own, name: ownName };
  if (typeof parentName !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(parentName)) {
    throw new VariantSpecError(`${file}: extends: expected the name of a preset in the same folder`, file);
  }
  const parentFile = join(dirname(file), `${parentName}.yaml`);
  if (!existsSync(parentFile)) {
    throw new VariantSpecError(`${file}: extends: no preset '${parentName}' (${parentFile})`, file);
  }
  const parent = readMerged(parentFile, [...chain, file]);
  const inherited = Object.fromEntries(Object.entries(parent).filter(([k]) => !NOT_INHERITED.has(k)));
  const merged = mergeSpec(inherited, own);
  delete merged.extends;
  return { ...merged, name: ownName };
}

function readYaml(file: string): Raw {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new VariantSpecError(`${file}: not valid YAML: ${(err as Error).message}`, file);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new VariantSpecError(`${file}: expected a YAML mapping at the top level`, file);
  }
  return doc as Raw;
}

function isPlainObject(v: unknown): v is Raw {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Child wins; nested mappings merge recursively, except the keys replaced whole. */
export function mergeSpec(base: Raw, override: Raw, depth = 0): Raw {
  const out: Raw = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const prev = out[key];
    const replace = depth === 0 && REPLACED_WHOLE.has(key);
    out[key] = !replace && isPlainObject(prev) && isPlainObject(value) ? mergeSpec(prev, value, depth + 1) : value;
  }
  return out;
}
