/**
 * JSON that round-trips what plain JSON loses in a submission context: Buffers (question
 * archives, as base64) and Dates (deadlines, as ISO strings). A Buffer becomes
 * `{"$buffer": "<base64>"}` and a Date `{"$date": "<ISO>"}`; an object whose only key is one
 * of those tags is therefore reserved (no domain entity has one).
 */
const BUFFER_TAG = '$buffer';
const DATE_TAG = '$date';

export function encodeJson(value: unknown): string {
  // A function, not an arrow: `this[key]` is the raw value, before Buffer/Date toJSON ran.
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, converted: unknown) {
    const raw = this[key];
    if (Buffer.isBuffer(raw)) return { [BUFFER_TAG]: raw.toString('base64') };
    if (raw instanceof Date) return { [DATE_TAG]: raw.toISOString() };
    return converted;
  });
}

/** Throws SyntaxError on text that is not JSON. */
export function decodeJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    const tagged = soleTag(value);
    if (tagged?.tag === BUFFER_TAG) return Buffer.from(tagged.text, 'base64');
    if (tagged?.tag === DATE_TAG) return new Date(tagged.text);
    return value;
  });
}

function soleTag(value: unknown): { tag: string; text: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1 || (keys[0] !== BUFFER_TAG && keys[0] !== DATE_TAG)) return null;
  const text = (value as Record<string, unknown>)[keys[0]];
  return typeof text === 'string' ? { tag: keys[0], text } : null;
}
