/** One progress line per phase, on stderr so stdout stays for tables. */
export function phase(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
