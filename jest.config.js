// One Jest config, three projects: unit (*.spec.ts, mocks allowed), integration (*.int.ts,
// real servers started by infra/), e2e (*.e2e.ts, real services over HTTP).
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    `<rootDir>/${target}`,
  ]),
);

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  // Nest 12 ships ESM only and Jest cannot require(esm) on Node 20: swc compiles it to CJS.
  transform: { '^.+\\.(t|j)s$': transform['^.+\\.ts$'] },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/)'],
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/run/', '/tools/'],
};

module.exports = {
  // The failures again at the very end of the output (CI shows its head and tail only).
  reporters: [['default', { summaryThreshold: 0 }]],
  // e2e files in variant order (each variant up about once, the same order every run); test/support/variant-sequencer.js.
  testSequencer: '<rootDir>/test/support/variant-sequencer.js',
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/**/*.spec.ts'] },
    // Real servers and real sandboxes: a grading under load takes seconds, so the bound is one that
    // names a hang (Jest's 5 s default failed slow-but-correct gradings), never a speed check.
    // Run one at a time (--runInBand): some restart or stop shared servers, flush shared Redis
    // databases or load both cores. A file that touches nothing shared is named *.parallel.int.ts
    // and runs in the project below, two workers at a time (scripts/test.sh).
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/**/*.int.ts'],
      testPathIgnorePatterns: [...base.testPathIgnorePatterns, '\\.parallel\\.int\\.ts$'],
      setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'],
    },
    { ...base, displayName: 'integration-parallel', testMatch: ['<rootDir>/**/*.parallel.int.ts'], setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'] },
    // Each e2e file declares its variant(s); e2e-guard.ts holds it to them.
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/**/*.e2e.ts'], setupFilesAfterEnv: ['<rootDir>/test/support/e2e-guard.ts'] },
  ],
};
