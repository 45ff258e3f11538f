// How far behind this process's event loop runs: the login gate's pressure signal.
export * from './event-loop-pressure';
