// How far behind this process's event loop runs: the login gate's pressure signal (issue 21 item 4).
export * from './event-loop-pressure';
