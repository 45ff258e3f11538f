/**
 * The e2e stage's order (issue 29): every e2e file says which variant(s) it brings up in a
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

/** Sort key: files without a variant first, then by first variant, single-variant files before the ones that switch, then path. */
function e2eOrder(a, b) {
  const [va, vb] = [a, b].map((t) => declaredVariantsOfFile(t.path) ?? []);
  const key = (v) => [v.length === 0 ? '' : v[0], v.length > 1 ? 1 : 0];
  const [ka, kb] = [key(va), key(vb)];
  if (ka[0] !== kb[0]) return ka[0] < kb[0] ? -1 : 1;
  if (ka[1] !== kb[1]) return ka[1] - kb[1];
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

class VariantSequencer extends Sequencer {
  sort(tests) {
    if (tests.length > 0 && tests.every(isE2e)) return [...tests].sort(e2eOrder);
    return super.sort(tests);
  }
}

module.exports = VariantSequencer;
module.exports.default = VariantSequencer;
module.exports.declaredVariants = declaredVariants;
module.exports.e2eOrder = e2eOrder;
