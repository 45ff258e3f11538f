/**
 * Per-installation secrets (docs/design.md, Untrusted input): generated once, kept in
 * run/secrets.json readable by its owner only, and handed to what the launcher starts and to
 * the compose / Kubernetes generators. Nothing in the repository is a usable secret.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { RUN_DIR } from './paths';

export const SECRETS_FILE = join(RUN_DIR, 'secrets.json');

const secret = z.string().min(32);
export const installationSecretsSchema = z.strictObject({
  /** Signs access and refresh tokens; shared by every replica. */
  jwtSecret: secret,
  /** Passwords of the containerised servers (compose, Kubernetes). */
  dbPassword: secret,
  amqpPassword: secret,
  minioUser: z.string().min(8),
  minioPassword: secret,
  /** Redis's `requirepass` (BullMQ broker, shared rate-limit counters, cache). */
  redisPassword: secret,
  /** Opens /metrics, /docs and /health detail of every service to whoever presents it (Authorization: Bearer): scrapers, the bench harness. */
  scrapeToken: secret,
});
export type InstallationSecrets = z.infer<typeof installationSecretsSchema>;

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

export function generateSecrets(): InstallationSecrets {
  return { jwtSecret: token(48), dbPassword: token(24), amqpPassword: token(24), minioUser: `sg-${token(6)}`, minioPassword: token(24), redisPassword: token(24), scrapeToken: token(32) };
}

/**
 * The secrets of this installation: read from `file`, or generated and written there (mode
 * 0600) the first time. A file others may read is refused, not silently used.
 */
export function installationSecrets(file = SECRETS_FILE): InstallationSecrets {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const fresh = generateSecrets();
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // 'wx': two launchers racing never overwrite each other's secrets; the loser reads the winner's.
    try {
      writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      return fresh;
    } catch (race) {
      if ((race as NodeJS.ErrnoException).code !== 'EEXIST') throw race;
      text = readFileSync(file, 'utf8');
    }
  }
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) throw new Error(`${file} is readable by others (mode ${mode.toString(8)}): chmod 600 it, or delete it to generate new secrets`);
  const stored = JSON.parse(text) as Partial<InstallationSecrets>;
  // A file written before a secret existed gets it generated and kept (the others stay as they were).
  const missing = (Object.keys(installationSecretsSchema.shape) as (keyof InstallationSecrets)[]).filter((k) => stored[k] === undefined);
  if (missing.length > 0 && installationSecretsSchema.partial().safeParse(stored).success) {
    const fresh = generateSecrets();
    for (const k of missing) (stored as Record<string, string>)[k] = fresh[k];
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  const parsed = installationSecretsSchema.safeParse(stored);
  if (!parsed.success) throw new Error(`${file} is not a valid secrets file (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}): delete it to generate new secrets`);
  return parsed.data;
}
