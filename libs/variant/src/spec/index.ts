/**
 * The variant wiring spec: one YAML file under infra/variants/ says how the same domain code
 * is wired (topology, dispatch, storage, cache, replicas, tunables). The launcher, the
 * benchmark runner and the deployment generators all read this one validated shape.
 *
 * One file per section (grader, admission, auth, database, broker, gateway, http, ...); the
 * whole shape and its cross-field rules in variant.ts.
 */
export { MAX_REPLICAS } from './values';
export * from './topology';
export * from './grader';
export * from './tracing';
export * from './database';
export * from './broker';
export * from './http';
export * from './auth';
export * from './gateway';
export * from './admission';
export * from './variant';
