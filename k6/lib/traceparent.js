// W3C Trace Context `traceparent` (version 00): 16-byte trace id, 8-byte parent span id,
// flags 01 (sampled). Written here because k6 cannot fetch remote jslib modules offline.

// k6 CPU: ids come from Math.random, 32 bits at a time. Trace ids need to be
// unique, not secret, and crypto.getRandomValues plus reading a Uint8Array byte by byte cost k6
// several times more per request (each typed-array index is a property lookup by string).

/** 8 lowercase hex digits of one random 32-bit word; never 0 when `nonZero`. */
function hexWord(nonZero) {
  const word = nonZero ? 1 + Math.floor(Math.random() * 0xffffffff) : Math.floor(Math.random() * 0x100000000);
  return (0x100000000 + word).toString(16).slice(1);
}

/** Random lowercase hex id of `n` bytes (a multiple of 4); never all zeros (invalid per the spec). */
export function randomId(n) {
  let out = '';
  for (let i = n / 4; i > 1; i--) out += hexWord(false);
  return out + hexWord(true);
}

/** A fresh sampled traceparent: { header, traceId, spanId }. */
export function newTraceparent() {
  const traceId = randomId(16);
  const spanId = randomId(8);
  return { header: '00-' + traceId + '-' + spanId + '-01', traceId, spanId };
}

const TRACEPARENT_RE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Parses a traceparent header; null when malformed or carrying all-zero ids. */
export function parseTraceparent(header) {
  const m = TRACEPARENT_RE.exec(header);
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return null;
  return { traceId: m[1], spanId: m[2], flags: m[3] };
}
