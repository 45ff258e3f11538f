/**
 * Which of the repository's TypeScript files a piece of work runs code in (issue 32 item 5, "files
 * crossed"), from V8's precise coverage with call counts, in this process: each take returns the
 * files with a function called since the previous take (V8 resets the counts on every take).
 * A module's top-level code runs once, at its first import, so a warm-up before the counted
 * work leaves loading out; what remains is what the work itself calls. Re-export barrels (index.ts)
 * are left out: see BARREL.
 */
import { Session } from 'node:inspector/promises';
import { relative, resolve, sep } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../../../..');
/** Our own sources: the libraries, services, brokers and apps, not their tests. */
const OURS = /^(libs|services|brokers|apps|infra)\/.+\.ts$/;
const TEST_CODE = /(^|\/)(test|tests)\/|\.(spec|int|e2e|child)\.ts$/;
/**
 * A library's index.ts only re-exports: compiled to CommonJS, each use of a name imported through
 * it calls a getter defined there, so V8 sees it "run" though no reader ever follows the path into it.
 */
const BARREL = /\/index\.ts$/;

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

export class FilesCrossed {
  private readonly session = new Session();

  /** Starts counting; what ran before is not reported. */
  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await this.take();
  }

  /** The repository's TypeScript files (relative paths, sorted) with a function called since the last take. */
  async take(): Promise<string[]> {
    const { result } = (await this.session.post('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
    const files = new Set<string>();
    for (const script of result) {
      const file = repoPath(script.url);
      if (file && script.functions.some((f) => f.ranges[0]?.count > 0)) files.add(file);
    }
    return [...files].sort();
  }

  async stop(): Promise<void> {
    await this.session.post('Profiler.stopPreciseCoverage');
    await this.session.post('Profiler.disable');
    this.session.disconnect();
  }
}

function repoPath(url: string): string | undefined {
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  if (!path.startsWith(REPO_ROOT + sep)) return undefined;
  const file = relative(REPO_ROOT, path).split(sep).join('/');
  return OURS.test(file) && !TEST_CODE.test(file) && !BARREL.test(file) ? file : undefined;
}
