/**
 * Decodes the two submission body formats (docs/design.md, HTTP contract) into the same bytes:
 * multipart/form-data (`file`, `ex_id`, `ps_id`) and the original SPA's JSON, whose
 * `production_data.data` maps byte index → byte value (or is an array of bytes).
 */
import { spaSubmissionRequest, submissionFields } from '@shellgrade/api-contract';
import { DomainError, invalid } from '@shellgrade/domain';

export interface DecodedSubmission {
  exerciseId: number;
  statementId: number;
  archive: Buffer;
}

export function decodeSpaBody(body: unknown, maxBytes: number): DecodedSubmission {
  const parsed = spaSubmissionRequest.parse(body);
  const { data, size } = parsed.production_data;
  const archive = Array.isArray(data) ? bytesFromArray(data, maxBytes) : bytesFromIndexMap(data, maxBytes);
  if (size !== undefined && size !== archive.length) {
    throw invalid(`production_data.size is ${size} but data holds ${archive.length} bytes`);
  }
  return { exerciseId: parsed.ex_id, statementId: parsed.ps_id, archive };
}

export function decodeMultipart(fields: unknown, file: { buffer: Buffer } | undefined): DecodedSubmission {
  const parsed = submissionFields.parse(fields ?? {});
  if (!file) throw invalid('multipart body has no `file` part');
  return { exerciseId: parsed.ex_id, statementId: parsed.ps_id, archive: file.buffer };
}

export function tooLarge(n: number, max: number): DomainError {
  return new DomainError('too-large', `archive of ${n} bytes exceeds the limit of ${max} bytes`, { limit: max });
}

function checkByte(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) {
    throw invalid(`production_data.data${where} must be an integer byte 0..255, got ${JSON.stringify(value)}`);
  }
  return value;
}

function bytesFromArray(values: unknown[], maxBytes: number): Buffer {
  if (values.length > maxBytes) throw tooLarge(values.length, maxBytes);
  const out = Buffer.allocUnsafe(values.length);
  values.forEach((v, i) => (out[i] = checkByte(v, `[${i}]`)));
  return out;
}

function bytesFromIndexMap(map: Record<string, unknown>, maxBytes: number): Buffer {
  const keys = Object.keys(map);
  if (keys.length > maxBytes) throw tooLarge(keys.length, maxBytes);
  const out = Buffer.alloc(keys.length);
  for (const key of keys) {
    const index = Number(key);
    if (!/^(0|[1-9]\d*)$/.test(key) || index >= keys.length) {
      throw invalid(`production_data.data keys must be the indexes 0..${keys.length - 1}; got "${key.slice(0, 20)}"`);
    }
    out[index] = checkByte(map[key], `["${key}"]`);
  }
  // Canonical, distinct and all below length: the keys are exactly 0..length-1.
  return out;
}
