/**
 * The layer rules of shellgrade as failing checks (run by `npm run depcruise`, part of
 * `npm test`). Layers are recognised by path, so a new file is checked the day it is added:
 *
 *   services/*   composition roots       → wiring, adapters, spec, domain
 *   libs/wiring  spec value → adapter     → adapters, spec, domain
 *   adapters     libs/{persistence,sql-transaction,storage,cache,grading,dispatch,admission,event-loop-pressure,refusal,pipeline-filters,
 *                telemetry,http,console-server,auth,api,gateway,grpc-edge,service-clients,broker-*}
 *                                        → adapters, domain
 *                inside them, by side of the hexagon:
 *                  inbound      libs/{api,gateway,grpc-edge,http,console-server}  controllers, HTTP/gRPC edge, the console
 *                  application  libs/{application,dispatch,admission,event-loop-pressure,refusal,pipeline-filters,auth}
 *                                                                     use cases and the ports they own; the
 *                                                                     dispatch libs one concern each, apart
 *                  outbound     libs/{persistence,sql-transaction,storage,cache,grading,telemetry,service-clients,broker-*}
 *                inbound never imports outbound (it reaches storage, brokers and graders through
 *                domain or application ports), nor a driver or token package itself (pg, Redis,
 *                brokers, object store, JWT, password hashing, rate counters); outbound never
 *                imports inbound
 *                the path of one submission through them, layer by layer (the submission-* rules):
 *                  controller → SubmissionService (libs/domain submission.ts) → GradingDispatch port →
 *                  a dispatch (libs/dispatch inline; libs/broker-queue's QueueDispatch over a broker's transport)
 *                  → GradingWorker (libs/domain grading-worker.ts) → Grader port → libs/grading (the sandbox)
 *                each step reaches the next through a port, never by skipping a layer
 *   libs/console-server  the researchers' console (it launches the harness): imported only by the
 *                wiring's console mount (libs/wiring/src/console-mount.ts, @shellgrade/wiring/console),
 *                which the processes serving the browser app call; the exercise service, libs/api and the
 *                wiring's grading providers never reach it (the console-* rules)
 *   libs/variant the spec (data)          → nothing of ours
 *   libs/domain  business rules           → nothing of ours, no framework
 *   libs/trace-model  contract shared with the browser (Jaeger types, critical path) → nothing
 *   libs/api-contract the public API: its requests, bodies and paths (zod → OpenAPI → the web app's generated client)
 *                                        → zod, the domain's enum arrays (libs/domain/src/enums.ts)
 *   libs/stats   statistics (Welch's interval, rank tests) → pure-math packages only
 *   tools        infra, benchmarks, traces, libs/admin-cli (its seed too, which tests of every layer use), test/
 *                                        → anything but services
 *   libs/**      the ground floor all of the above build on: a library, its tests and test support
 *                included, imports libraries, packages and Node only (libs-ground-floor)
 *
 * Nx's depConstraints (eslint.config.mjs) say the same per project; these rules also see files
 * outside any tag, circles inside one project, and runtime code reaching into tests.
 *
 * .dependency-cruiser-known-violations.json held the one violation known when the rules were
 * written (libs/grading: process-runner <-> sandbox-process; sandbox-process.ts now imports no runner); it is gone and the file is empty:
 * keep it so, every violation fails `npm test`.
 */
const DOMAIN = '^libs/domain/src/';
const SPEC = '^libs/variant/src/';
const ADAPTERS = '^(libs/(persistence|sql-transaction|storage|cache|grading|dispatch|admission|application|event-loop-pressure|refusal|pipeline-filters|telemetry|http|console-server|auth|api|gateway|grpc-edge|service-clients|broker-[^/]+)/src/)';
// What was libs/dispatch, split by concern: each depends on the domain only, admission also on
// refusal (dispatch-concerns-apart, admission-only-to-refusal).
const DISPATCH_CONCERNS = '^libs/(dispatch|admission|event-loop-pressure|refusal|pipeline-filters)/src/';
const INBOUND = '^libs/(api|gateway|grpc-edge|http|console-server)/src/';
const OUTBOUND = '^libs/(persistence|sql-transaction|storage|cache|grading|telemetry|service-clients|broker-[^/]+)/src/';
// The packages outbound adapters (and libs/auth's token and password classes) wrap: an inbound file that
// named one would be doing an adapter's job (no-inbound-to-driver).
const DRIVERS = '^node_modules/(pg|pg-[^/]+|ioredis|amqplib|amqp-connection-manager|bullmq|minio|jsonwebtoken|@node-rs/argon2|rate-limiter-flexible)/';
const WIRING = '^libs/wiring/src/';
const CONTRACTS = '^libs/(trace-model|console-contract|api-contract)/src/';
const STATS = '^libs/stats/src/';
// The domain's closed vocabularies (ROLES, EXERCISE_STATES, ...): the one file of the domain a contract may import.
const DOMAIN_ENUMS = '^libs/domain/src/enums\\.ts$';
const SERVICES = '^services/[^/]+/src/';
const TOOLS = '^((infra|benchmarks|traces)/src/|libs/admin-cli/(seed/)?src/|test/)';
const TESTS = '(^|/)test/|\\.(spec|int|e2e)\\.ts$';
// The submission's path (see the header): its two use cases, the dispatches and the sandbox at the bottom.
const USE_CASES = '^libs/domain/src/(submission|grading-worker)\\.ts$';
const DISPATCHES = '^libs/(dispatch|pipeline-filters|broker-[^/]+)/src/';
const GRADER = '^libs/grading/src/';
const BROKER_TRANSPORTS = '^libs/broker-(rabbitmq|bullmq)/src/';
const BROKER_DRIVERS = '^node_modules/(amqplib|amqp-connection-manager|bullmq|ioredis)/';
// The researchers' console and its one door (console-only-through-the-mount, no-console-in-grading-code).
const CONSOLE = '^libs/console-server/';
const CONSOLE_MOUNT = '^libs/wiring/src/console-mount\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle has no layer order: one of its files must move, or a shared part must be cut out of both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-ground-floor',
      severity: 'error',
      comment:
        'libs/ is the ground floor every other folder builds on (services, infra, benchmarks, traces, k6, test/, apps): a library, its tests and its tools included, imports other libraries and packages only, never a folder that itself imports libs (that arrow would run back up a layer; what both need belongs in a lib).',
      from: { path: '^libs/' },
      to: { pathNot: '^(libs|node_modules)/', dependencyTypesNot: ['core'] },
    },
    // The tools stand on libs in one order, each driving the ones below it: infra (launcher, deploy) <
    // traces (Jaeger export, attribution) < benchmarks (the harness, which runs both) < test/ (system
    // tests) and apps. A lower one importing a higher one is an arrow back up (and closes a circle in
    // Nx's project graph, which fails lint).
    {
      name: 'tool-tiers-infra',
      severity: 'error',
      comment: 'infra (the launcher, the deploy generators, the servers) is the lowest tool: the harness, the trace tools and the system tests drive it, it imports none of them.',
      from: { path: '^infra/' },
      to: { path: '^(traces|benchmarks|k6|test|apps)/' },
    },
    {
      name: 'tool-tiers-k6',
      severity: 'error',
      comment: 'k6 (the load scripts and their declarations) is run by the harness, which reads what k6 writes: the shapes of what k6 writes are declared beside the k6 modules, and k6 imports none of the tools above it.',
      from: { path: '^k6/' },
      to: { path: '^(infra|traces|benchmarks|test|apps)/' },
    },
    {
      name: 'tool-tiers-traces',
      severity: 'error',
      comment: 'The trace tools (export, attribution) are run by the harness and the system tests: they import neither, nor k6 or the web app.',
      from: { path: '^traces/' },
      to: { path: '^(benchmarks|k6|test|apps)/' },
    },
    {
      name: 'tool-tiers-benchmarks',
      severity: 'error',
      comment: 'The harness runs variants, k6 and the trace tools; the system tests and the web app check it from above, it imports neither.',
      from: { path: '^benchmarks/' },
      to: { path: '^(test|apps)/' },
    },
    {
      name: 'no-domain-to-outside',
      severity: 'error',
      comment: 'The domain is framework-free business logic: it depends on no other project and no package but zod.',
      from: { path: DOMAIN },
      to: { pathNot: [DOMAIN, '^node_modules/zod/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'no-spec-to-runtime',
      severity: 'error',
      comment: 'The variant spec is data (schema, loader, process plan): it must not pull in the code it configures.',
      from: { path: SPEC },
      to: { path: [DOMAIN, ADAPTERS, WIRING, SERVICES, TOOLS] },
    },
    {
      name: 'no-adapter-to-spec',
      severity: 'error',
      comment: 'Adapters are told their settings by the wiring; they never read the spec (or the environment) themselves.',
      from: { path: ADAPTERS, pathNot: TESTS },
      to: { path: SPEC },
    },
    {
      name: 'no-adapter-to-wiring',
      severity: 'error',
      comment: 'Wiring picks adapters; an adapter that reached the wiring would pick itself.',
      from: { path: ADAPTERS },
      to: { path: WIRING },
    },
    {
      name: 'no-inbound-to-outbound',
      severity: 'error',
      comment: 'Controllers and the HTTP/gRPC edge reach storage, brokers and graders through a port (libs/domain, or the application lib that owns it), bound by the wiring: never by naming the adapter class.',
      from: { path: INBOUND, pathNot: TESTS },
      to: { path: OUTBOUND },
    },
    {
      name: 'no-inbound-to-driver',
      severity: 'error',
      comment: 'Controllers and the HTTP/gRPC edge hold no database, cache, broker, object-store, token or password-hashing package: those are the outbound adapters\' (and libs/auth\'s token and password classes\'), reached through a port.',
      from: { path: INBOUND, pathNot: TESTS },
      to: { path: DRIVERS },
    },
    {
      name: 'dispatch-concerns-apart',
      severity: 'error',
      comment: 'Dispatch, event-loop pressure, refusal and the pipeline filters are one job each: none reaches into another.',
      from: { path: '^libs/(dispatch|event-loop-pressure|refusal|pipeline-filters)/src/' },
      to: { path: DISPATCH_CONCERNS, pathNot: '^libs/$1/src/' },
    },
    {
      name: 'admission-only-to-refusal',
      severity: 'error',
      comment: 'Admission decides who is let in; of its neighbours it uses only libs/refusal (its 503 says Retry-After the refusal\'s way). The event-loop pressure reaches it as a function the wiring hands over.',
      from: { path: '^libs/admission/src/' },
      to: { path: DISPATCH_CONCERNS, pathNot: '^libs/(admission|refusal)/src/' },
    },
    {
      name: 'submission-use-cases-apart',
      severity: 'error',
      comment:
        'The submission (SubmissionService) and the grading (GradingWorker) are two use cases: the submission hands a production to whatever dispatch the wiring bound (GradingDispatch), which reaches the worker; one that imported the other would grade inline whatever the spec says, or store what it grades.',
      from: { path: USE_CASES },
      to: { path: USE_CASES, pathNot: '^libs/domain/src/$1\\.ts$' },
    },
    {
      name: 'submission-dispatch-not-to-grader',
      severity: 'error',
      comment:
        'A dispatch (inline, a queue, the pipeline) carries a production to GradingWorker or the Grader port; one that ran the sandbox itself would skip what the worker guarantees (the answer deadline, one outcome stored per production).',
      from: { path: DISPATCHES, pathNot: TESTS },
      to: { path: GRADER },
    },
    {
      name: 'submission-grader-at-the-bottom',
      severity: 'error',
      comment:
        'The sandboxed grader is the last layer a submission crosses: it is handed one GradingJob and answers a result, and knows no production store, queue, dispatch or admission (its spans aside).',
      from: { path: GRADER, pathNot: TESTS },
      to: { path: '^(libs|services)/', pathNot: '^libs/(grading|domain|telemetry)/src/' },
    },
    {
      name: 'submission-refused-by-the-queue-dispatch',
      severity: 'error',
      comment:
        'Marking queued, publishing, refusing (503 + Retry-After), waiting and reading back are written once, in libs/broker-queue (QueueDispatch); a broker adapter is a transport: it neither refuses a submission itself nor borrows from another broker.',
      from: { path: BROKER_TRANSPORTS, pathNot: TESTS },
      to: { path: ['^libs/refusal/src/', BROKER_TRANSPORTS], pathNot: '^libs/broker-$1/src/' },
    },
    {
      name: 'submission-queue-dispatch-broker-free',
      severity: 'error',
      comment: 'The queue dispatch is what every broker shares: it names no broker adapter and no broker client package (they are its transports\'), so a third broker is a transport, not a copy.',
      from: { path: '^libs/broker-queue/src/' },
      to: { path: [BROKER_TRANSPORTS, BROKER_DRIVERS] },
    },
    {
      name: 'no-controller-to-controller-or-repository',
      severity: 'error',
      comment:
        'A controller parses, calls a use case (libs/application, or a domain or application port) and renders a view: it never borrows another controller (what two share lives in a file of its own) nor holds a repository implementation or its caching decorator.',
      from: { path: '^libs/api/src/(.+)\\.controller\\.ts$' },
      to: { path: ['\\.controller\\.ts$', '^libs/(persistence|cache|service-clients)/src/'], pathNot: '^libs/api/src/$1\\.controller\\.ts$' },
    },
    {
      name: 'console-only-through-the-mount',
      severity: 'error',
      comment:
        "The researchers' console launches the harness (npm run bench) and cancels runs: it is mounted by the wiring's console mount alone (@shellgrade/wiring/console), which the processes serving the browser app call. Any other import of it would carry that code into a process the spec did not give the console.",
      from: { path: '^(libs|services)/', pathNot: [CONSOLE, CONSOLE_MOUNT, TESTS] },
      to: { path: CONSOLE },
    },
    {
      name: 'no-console-in-grading-code',
      severity: 'error',
      comment:
        "The exercise service, the controllers (libs/api) and the wiring's grading providers never reach the console, not even through the wiring's index: a grading process carries no code that can spawn the harness.",
      from: { path: ['^services/exercise/src/', '^libs/api/src/', '^libs/wiring/src/(?!console-mount\\.ts$)'], pathNot: TESTS },
      to: { path: [CONSOLE, CONSOLE_MOUNT], reachable: true },
    },
    {
      name: 'no-outbound-to-inbound',
      severity: 'error',
      comment: 'An outbound adapter (database, store, broker, grader) is driven by the application; it never calls back into a controller or the HTTP edge.',
      from: { path: OUTBOUND, pathNot: TESTS },
      to: { path: INBOUND },
    },
    {
      name: 'no-adapter-to-service',
      severity: 'error',
      comment: 'Services are composition roots at the top; nothing below imports them.',
      from: { path: [DOMAIN, SPEC, ADAPTERS, WIRING] },
      to: { path: SERVICES },
    },
    {
      name: 'no-runtime-to-tool',
      severity: 'error',
      comment: 'Tools (launcher, harness, admin CLI) drive the runtime from outside; runtime code never needs them.',
      from: { path: [DOMAIN, SPEC, ADAPTERS, WIRING, SERVICES] },
      to: { path: TOOLS },
    },
    {
      name: 'no-service-to-service',
      severity: 'error',
      comment: 'Each service is its own process: what two share belongs in a library.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'no-contract-to-outside',
      severity: 'error',
      comment:
        'A contract shared with the browser (libs/trace-model, libs/console-contract, libs/api-contract) is plain data and pure functions: it imports nothing of ours but the statistics (libs/stats) and the domain\'s enum arrays (libs/domain/src/enums.ts, so a role or a state is declared once), and no package but zod, in which the public API is written (its OpenAPI document and the web app\'s generated client come from it).',
      from: { path: CONTRACTS },
      to: { pathNot: `${CONTRACTS}|${STATS}|${DOMAIN_ENUMS}|^node_modules/zod/` },
    },
    {
      name: 'stats-pure',
      severity: 'error',
      comment:
        'Statistics (libs/stats) are pure math over the well-kept statistics packages: the same figures on the server, in the tools and in the browser, so they import nothing of ours.',
      from: { path: STATS },
      to: { pathNot: `${STATS}|^node_modules/(simple-statistics|@stdlib/stats-base-dists-[a-z-]+)/` },
    },
    {
      name: 'no-web-to-server',
      severity: 'error',
      comment: 'The browser app (apps/web) reaches the services over HTTP only: it imports no server or tool code.',
      from: { path: '^apps/web/src/' },
      to: { path: '^(libs|services|infra|benchmarks|traces|test)/', pathNot: `${CONTRACTS}|${STATS}` },
    },
    {
      name: 'not-to-test',
      severity: 'error',
      comment: 'Runtime code must not depend on tests or their support files.',
      from: { path: '^(libs|services)/[^/]+/src/', pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment: 'Runtime code must run from a production install: no devDependencies outside tests.',
      from: { path: '^(libs|services)/[^/]+/src/', pathNot: TESTS },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve fails at run time.',
      from: {},
      // k6's built-in modules (k6, k6/http, k6/metrics...) exist only inside the k6 binary.
      to: { couldNotResolve: true, pathNot: '^k6(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The repository's build output and run state, at the top only: a package's own dist/ (bullmq and
    // amqp-connection-manager resolve there) is a dependency like any other, which the driver rules must see.
    exclude: { path: '^(dist|run|apps/web/dist)/' },
    // Type-only imports are dependencies of the design too (a circle of types is still a circle).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], mainFields: ['main', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
