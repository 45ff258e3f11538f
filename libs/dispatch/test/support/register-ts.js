// Lets a child `node` process run the TypeScript sources directly (worker processes spawned by
// the broker fault tests): @swc/core compiles each .ts file on require and rewrites the
// @shellgrade/* path aliases of tsconfig.base.json, as Jest's @swc/jest transform does.
const path = require('node:path');
const { addHook } = require('pirates');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));

addHook(
  (code, filename) =>
    swc.transformSync(code, {
      filename,
      sourceMaps: 'inline',
      module: { type: 'commonjs' },
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        baseUrl: root,
        paths: compilerOptions.paths,
      },
    }).code,
  { exts: ['.ts'], ignoreNodeModules: true },
);
