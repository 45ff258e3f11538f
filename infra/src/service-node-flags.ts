/**
 * V8 flags every service process starts with, under pm2 and in the container plans alike. At the
 * papers' low rates a replica idles between requests, and V8's memory reducer spends that idle time
 * on full collections that shrink a heap the next request grows again; a larger young generation
 * scavenges the per-request garbage less often. Measured on `small` with --kdf-cost 1 (one host,
 * 2-3 runs before, 4 after): msa-zygote-1-2 58.6 -> 56.9 ms of CPU per iteration, naked-mon-zygote
 * 45.2 -> 43.1, for ~8 MiB more memory per process.
 */
export const SERVICE_V8_FLAGS: readonly string[] = ['--no-memory-reducer', '--max-semi-space-size=16'];
