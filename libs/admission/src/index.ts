// Admission: how many submissions or password checks one process takes in at
// once, and its metrics. Refusals are worded with @shellgrade/refusal's Retry-After.
export * from './admission';
export * from './admission-metrics';
