/**
 * Client-observed SPS durations by trace id, read from whatever the k6 harness left in
 * results/<run-id>/: the one-JSON-line-per-SPS log (`{"sg":"sps","trace_id",...}`,
 * raw, or inside k6's logfmt `msg="..."` or JSON-format `"msg"` log lines), or raw `--out json` points of
 * http_req_duration carrying `metadata.trace_id`. Missing files mean no samples.
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export interface ClientSample {
  traceId: string;
  durationMs: number;
  startMs?: number;
  status?: number;
}

const READABLE = /\.(log|ndjson|jsonl|json|txt)(\.gz)?$/;
const MAX_DEPTH = 4;

function listFiles(dir: string, depth = 0): string[] {
  if (!existsSync(dir) || depth > MAX_DEPTH) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) return listFiles(path, depth + 1);
    return READABLE.test(name) && !name.startsWith('breakdown') ? [path] : [];
  });
}

export function normalizeTraceId(id: string): string {
  return id.toLowerCase().padStart(32, '0');
}

/** Parses one line; undefined when it carries no SPS sample. */
export function parseSampleLine(line: string): ClientSample | undefined {
  if (!line.includes('trace_id')) return undefined;
  const candidates: string[] = [line];
  const msg = /msg="((?:[^"\\]|\\.)*)"/.exec(line);
  if (msg) candidates.push(msg[1].replace(/\\(.)/g, '$1'));
  for (const text of candidates) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const sample = fromObject(value);
    if (sample) return sample;
    // k6 --log-format json: {"level":"info","msg":"<the console line>","source":"console",...}
    const inner = (value as { msg?: unknown } | null)?.msg;
    if (typeof inner === 'string' && inner !== text) candidates.push(inner);
  }
  return undefined;
}

/** k6/lib/scenario-r.js's per-SPS console line. */
interface SpsLogLine {
  sg?: string;
  trace_id?: unknown;
  duration_ms?: unknown;
  start_ms?: number;
  status?: number;
}

/** One raw sample of `k6 run --out json`. */
interface K6Point {
  type?: string;
  metric?: string;
  data?: { value?: unknown; tags?: Record<string, string>; metadata?: Record<string, unknown> };
}

function fromObject(value: unknown): ClientSample | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const o = value as SpsLogLine & K6Point;
  if (o.sg === 'sps' && typeof o.trace_id === 'string' && typeof o.duration_ms === 'number') {
    return { traceId: normalizeTraceId(o.trace_id), durationMs: o.duration_ms, startMs: o.start_ms, status: o.status };
  }
  const traceId = o.data?.metadata?.trace_id;
  if (o.type === 'Point' && o.metric === 'http_req_duration' && typeof traceId === 'string' && typeof o.data?.value === 'number') {
    const status = Number(o.data.tags?.status);
    return { traceId: normalizeTraceId(traceId), durationMs: o.data.value, status: Number.isFinite(status) ? status : undefined };
  }
  return undefined;
}

async function readFileSamples(path: string, into: Map<string, ClientSample>): Promise<void> {
  const input = createReadStream(path);
  const lines = createInterface({ input: path.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  for await (const line of lines) {
    const s = parseSampleLine(line);
    // The SPS log line and the raw point describe the same request; keep the first.
    if (s && !into.has(s.traceId)) into.set(s.traceId, s);
  }
}

export async function readClientSamples(runDir: string): Promise<Map<string, ClientSample>> {
  const samples = new Map<string, ClientSample>();
  for (const file of listFiles(runDir)) await readFileSamples(file, samples);
  return samples;
}
