// What other tools reuse of the latency attribution (the fault suite's attribution check):
// the analysis itself, never a copy of it.
export { attribute, breakdownTraces, ROOT_SERVICES } from './analyze';
export type { Component } from './attribution/components';
export { rootCrossing, type RequestBreakdown, type RootFinder } from './attribution/request';
export { sharesAt } from './attribution/shares';
export { JaegerClient } from './jaeger/client';
export { readClientSamples } from './samples/client-samples';
// The `traces` command, registered on the bench front door (benchmarks/src/cli.ts) as on its own entry.
export { registerTracesCommand } from './cli';
