/**
 * The e2e stage's order: every e2e file says which variant(s) it brings up in a
 * header line, `// e2e-variants: naked-mon, msa-1-2` (`none`: it starts its own processes).
 * Files are grouped by the first variant they need, groups in name order, so consecutive files
 * find their variant already up (the launcher keeps a healthy variant as it is): each variant is
 * brought up about once per suite, and two runs execute the files in the same order, whatever
 * durations Jest cached. The other stages keep Jest's default order (slowest first, in parallel).
 */
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const HEADER = /^\/\/ e2e-variants: (.+)$/m;

/** The variants a test file declares ([] for `none`), or undefined when it declares nothing. */
function declaredVariants(source) {
  const m = HEADER.exec(source);
  if (!m) return undefined;
  const names = m[1].split(',').map((s) => s.trim()).filter(Boolean);
  return names.length === 1 && names[0] === 'none' ? [] : names;
}

function declaredVariantsOfFile(path) {
  return declaredVariants(readFileSync(path, 'utf8'));
}

const isE2e = (test) => /\.e2e\.ts$/.test(test.path);

/** Sort key of a file: files without a variant first, then by first variant, single-variant files before the ones that switch, then path. */
function orderKey(path) {
  const variants = declaredVariantsOfFile(path) ?? [];
  return [variants[0] ?? '', variants.length > 1 ? 1 : 0, path];
}

function compareKeys(ka, kb) {
  if (ka[0] !== kb[0]) return ka[0] < kb[0] ? -1 : 1;
  if (ka[1] !== kb[1]) return ka[1] - kb[1];
  return ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0;
}

const e2eOrder = (a, b) => compareKeys(orderKey(a.path), orderKey(b.path));

class VariantSequencer extends Sequencer {
  sort(tests) {
    if (tests.length === 0 || !tests.every(isE2e)) return super.sort(tests);
    // Each file's header read once, not at every comparison.
    const keyed = tests.map((test) => ({ test, key: orderKey(test.path) }));
    return keyed.sort((a, b) => compareKeys(a.key, b.key)).map((k) => k.test);
  }
}

module.exports = VariantSequencer;
module.exports.default = VariantSequencer;
module.exports.declaredVariants = declaredVariants;
module.exports.e2eOrder = e2eOrder;
