// W3C Trace Context `traceparent` (version 00): 16-byte trace id, 8-byte parent span id,
// flags 01 (sampled). Written here because k6 cannot fetch remote jslib modules offline.

const HEX = '0123456789abcdef';

function randomBytes(n) {
  const bytes = new Uint8Array(n);
  if (globalThis.crypto && typeof globalThis.crypto.getRandomValues === 'function') {
    globalThis.crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < n; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  return bytes;
}

export function toHex(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return out;
}

/** Random lowercase hex id of `n` bytes; never all zeros (invalid per the spec). */
export function randomId(n) {
  const bytes = randomBytes(n);
  if (bytes.every((b) => b === 0)) bytes[n - 1] = 1;
  return toHex(bytes);
}

/** A fresh sampled traceparent: { header, traceId, spanId }. */
export function newTraceparent() {
  const traceId = randomId(16);
  const spanId = randomId(8);
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

const TRACEPARENT_RE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Parses a traceparent header; null when malformed or carrying all-zero ids. */
export function parseTraceparent(header) {
  const m = TRACEPARENT_RE.exec(header);
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return null;
  return { traceId: m[1], spanId: m[2], flags: m[3] };
}
