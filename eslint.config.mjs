import { readFileSync } from 'node:fs';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// The layers, outermost first: services -> wiring -> adapters -> domain. A project's
// type: tag says which layer it is in; it may depend on its own layer and the ones below.
const layers = [
  // Business rules know nothing of frameworks, storage or the variant spec.
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
  // The spec schema is data: it depends on no project.
  { sourceTag: 'type:spec', onlyDependOnLibsWithTags: ['type:spec'] },
  // Adapters implement the domain's ports and are told their settings: they never read the spec.
  { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:contract', 'type:fixture'] },
  // The adapters' layer:inbound/application/outbound tags (the hexagon's sides) are held per file by
  // .dependency-cruiser.cjs (no-inbound-to-outbound, no-inbound-to-driver, no-outbound-to-inbound), which sees files,
  // not projects: tests legitimately build a controller over a real repository.
  // The researchers' console (libs/console-server): inbound adapters that launch the harness. No adapter or
  // service imports it: the wiring mounts it where the spec makes a process serve the browser app (below).
  { sourceTag: 'type:console', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:contract', 'type:fixture', 'type:console'] },
  // The wiring reads the spec and picks adapters; it never reaches up into a service.
  { sourceTag: 'type:wiring', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:console', 'type:spec', 'type:wiring', 'type:fixture'] },
  // Composition roots: anything but the tools — and the console only through the wiring's mount (@shellgrade/wiring/console).
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:spec', 'type:wiring', 'type:fixture'] },
  // Tools (launcher, harness, admin CLI, system tests) drive the runtime from outside.
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:console', 'type:spec', 'type:wiring', 'type:tool', 'type:contract', 'type:stats', 'type:fixture'] },
  // The seed (libs/admin-cli/seed, `npm run db -- seed`): test and tool support that builds a seeded database.
  // Tests of every layer and the tools use it; runtime code never (runtimeLayers below, and
  // .dependency-cruiser.cjs no-runtime-to-tool). It needs no database adapter: persistence's own tests seed.
  { sourceTag: 'type:fixture', onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:fixture'] },
  // Contracts shared by the server side, the tools and the browser (libs/trace-model): plain data and
  // pure functions, depending on nothing of ours but the statistics and the domain's closed vocabularies
  // (the enum arrays: .dependency-cruiser.cjs no-contract-to-outside admits libs/domain/src/enums.ts alone).
  { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract', 'type:stats', 'type:domain'] },
  // Statistics (libs/stats): pure math over well-kept packages, the same figures in the tools and the browser.
  { sourceTag: 'type:stats', onlyDependOnLibsWithTags: ['type:stats'] },
  // The browser app (apps/web) talks to the services over HTTP only: it imports none of them, only contracts.
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:web', 'type:contract', 'type:stats'] },
];

// What was libs/dispatch, split by concern, one job each: the dispatch of a grading,
// admission, event-loop pressure, refusal, the pipeline filters. Each depends on the domain only;
// admission also on refusal (its 503 says Retry-After the refusal's way). Held for runtime files
// (src/, not tests): libs/dispatch's test support is the brokers' shared integration kit.
const concerns = [
  { sourceTag: 'concern:dispatch', onlyDependOnLibsWithTags: ['type:domain'] },
  { sourceTag: 'concern:admission', onlyDependOnLibsWithTags: ['type:domain', 'concern:refusal'] },
  { sourceTag: 'concern:pressure', onlyDependOnLibsWithTags: ['type:domain'] },
  { sourceTag: 'concern:refusal', onlyDependOnLibsWithTags: ['type:domain'] },
  { sourceTag: 'concern:pipeline', onlyDependOnLibsWithTags: ['type:domain'] },
];
// Runtime files (a project's src/, not its tests): the same layers without the seed, and the dispatch concerns.
const runtimeLayers = layers.map((c) =>
  c.sourceTag === 'type:tool' || c.sourceTag === 'type:fixture' ? c : { ...c, onlyDependOnLibsWithTags: c.onlyDependOnLibsWithTags.filter((t) => t !== 'type:fixture') },
);
// k6's own modules (plain JS run by k6, not a project) are unit-tested from Jest by path.
const boundaries = (depConstraints) => ['error', { allow: ['../../k6/lib/*', '../../../k6/lib/*'], depConstraints }];

// Inbound code names libs/auth's ports, never its token, session, counter or hashing classes (below).
const inboundAuthPaths = [
  {
    name: '@shellgrade/auth',
    importNames: ['AuthService', 'TokenService', 'IdentityAssertions', 'SessionFamilies', 'TokenVersions', 'AccessTokenAuthenticator', 'GatewayAssertionAuthenticator'],
    allowTypeImports: true,
    message: 'inbound code goes through a libs/auth port (LOGIN_SESSIONS, REQUEST_AUTHENTICATOR), not its token or session classes.',
  },
  {
    name: '@shellgrade/auth',
    importNames: ['RateLimits', 'KdfSecretHashing', 'hashPassword', 'verifyPassword', 'hashEnrolmentKey', 'verifyEnrolmentKey'],
    allowTypeImports: true,
    message: 'inbound code counts attempts through ATTEMPT_LIMITS and hashes secrets through SECRET_HASHING (libs/auth ports), so the counters and the KDF cost stay the wiring\'s choice.',
  },
];

// The public API's types are generated for the web app from the contract (apps/web/api-types.mjs
// exports each component under its name): a type or interface of apps/web named like one of them
// (or like libs/api-contract's <Name>Body) is a hand-written copy, which would drift from the contract.
const contractTypeNames = [
  ...readFileSync(new URL('./apps/web/src/api-types.generated.ts', import.meta.url), 'utf8').matchAll(/^export type (\w+) = components\['schemas'\]/gm),
].map(([, name]) => name);
const handWrittenContract = [
  {
    selector: `:matches(TSInterfaceDeclaration, TSTypeAliasDeclaration)[id.name=/^(${contractTypeNames.join('|')})(Body)?$/]`,
    message: 'a contract type is generated, not written: import it from api-types.generated.ts (libs/api-contract is where it is declared).',
  },
  {
    selector: "CallExpression[callee.name='request'] > :matches(Literal[value=/^\\/(api\\/|app-config)/], TemplateLiteral[quasis.0.value.raw=/^\\/(api\\/|app-config)/]).arguments",
    message: 'the public API is called through the client generated from its contract (api.ts `client` / `api`), whose paths, bodies and answers are typed by it.',
  },
];

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', 'apps/web/src/api-types.generated.ts', 'run/**', 'tools/**', 'results/**', '.nx/**', 'k6/**', 'benchmarks/*.js', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    // No silent skips: a test that cannot run must fail loudly, not vanish.
    files: ['**/*.spec.ts', '**/*.int.ts', '**/*.e2e.ts', '**/test/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['it', 'test', 'describe'].flatMap((object) =>
          ['skip', 'todo', 'only'].map((property) => ({ object, property, message: 'A disabled or focused test hides the rest: fix it or delete it.' })),
        ),
      ],
      'no-restricted-globals': [
        'error',
        ...['xit', 'xtest', 'xdescribe', 'fit', 'fdescribe'].map((name) => ({ name, message: 'A disabled or focused test hides the rest: fix it or delete it.' })),
      ],
    },
  },
  {
    // Inbound code (controllers, the HTTP/gRPC edge) reaches login sessions through libs/auth's ports
    // (LOGIN_SESSIONS, REQUEST_AUTHENTICATOR), never by holding its token or session machinery: the
    // classes below sit in an application lib, so neither the Nx tags nor .dependency-cruiser.cjs's
    // no-inbound-to-outbound (which see libs/auth as one barrel) can tell them from its ports.
    // Types stay importable (a port's signature may name them); tests may build anything.
    files: ['libs/{api,gateway,grpc-edge,http,console-server}/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int.ts', '**/*.e2e.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: inboundAuthPaths },
      ],
    },
  },
  {
    // Controllers parse -> call -> view: a CRUD or trial controller reaches the catalogue through a
    // use case of libs/application, never a repository port (or the grader) itself, so a rule such as
    // "invalidate the cache on write" or "who may enrol" has one home. Held by test/inbound-imports.spec.ts.
    files: ['libs/api/src/admin/**/*.controller.ts', 'libs/api/src/exercise-trial.controller.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...inboundAuthPaths,
            {
              name: '@shellgrade/domain',
              importNames: [
                'USER_REPOSITORY', 'EXERCISE_REPOSITORY', 'SEQUENCE_REPOSITORY', 'SESSION_REPOSITORY', 'ENROLMENT_REPOSITORY', 'STATEMENT_REPOSITORY',
                'PRODUCTION_LISTING', 'STORED_SESSION_PRODUCTIONS', 'SUBMISSION_CONTEXT_INVALIDATION', 'GRADER', 'ARCHIVE_VALIDATOR',
              ],
              message: 'a controller parses, calls a use case of libs/application and renders its view: the repositories (and the grader) are the use case\'s.',
            },
          ],
        },
      ],
    },
  },
  {
    // The wiring's grading providers (adapters.ts, dispatch/, cache.ts, ...) never load the console: a
    // service that serves no browser app (the exercise service) carries no code that launches the
    // harness. Its one door is console-mount.ts (@shellgrade/wiring/console). Also held per file by
    // .dependency-cruiser.cjs console-only-through-the-mount.
    files: ['libs/wiring/src/**/*.ts'],
    ignores: ['libs/wiring/src/console-mount.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@shellgrade/console-server', message: "the console is mounted by libs/wiring/src/console-mount.ts only (@shellgrade/wiring/console): a grading provider that loaded it would carry the harness's launcher into every service." }] },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': boundaries(layers),
    },
  },
  {
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...handWrittenContract] },
  },
  {
    files: ['libs/*/src/**/*.ts', 'services/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int.ts', '**/*.e2e.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries([...runtimeLayers, ...concerns]) },
  },
];
