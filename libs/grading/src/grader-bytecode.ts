/**
 * Each exercise's grader compiled once per service process, not once per grading:
 * compiling a grader.py costs every grading ~0.8 ms of CPU (the paper exercise's 2.7 KB), loading
 * its marshalled code ~0.02 ms. The service compiles a grader's source the first time it grades
 * with it, with the graders' own interpreter (its bytecode format), and hands the code in beside
 * grader.py as `grader.code`: marshal of (source bytes, code object). The supervisor runs that code
 * only when the source it carries is byte for byte the grader.py of the job (supervise.py), so a
 * stale or foreign file is ignored, never run. A grader that does not compile gets no code: the
 * grading compiles it and fails as it always did, with the grader's own SyntaxError.
 */
import { spawn } from 'node:child_process';

/** The file name in the job's folder (supervise.py reads the same name). */
export const GRADER_CODE_FILE = 'grader.code';

/** Graders remembered per process; a catalog holds a few dozen. */
const KEPT = 64;

// -S: no site; the code object is named "grader.py" as the supervisor's own compile() names it.
const COMPILE = 'import marshal, sys\ns = sys.stdin.buffer.read()\nsys.stdout.buffer.write(marshal.dumps((s, compile(s, "grader.py", "exec"))))';

export class GraderBytecode {
  /** By source text (a few KB each, and the jobs hold it anyway). */
  private readonly known = new Map<string, Promise<Buffer | undefined>>();

  constructor(private readonly python: string) {}

  /** The marshalled (source, code) of `source`, compiled on first use; undefined when it does not compile. */
  of(source: string): Promise<Buffer | undefined> {
    let code = this.known.get(source);
    if (code === undefined) {
      code = compileGrader(this.python, source);
      this.known.set(source, code);
      if (this.known.size > KEPT) this.known.delete(this.known.keys().next().value as string);
    }
    return code;
  }
}

function compileGrader(python: string, source: string): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const child = spawn(python, ['-S', '-c', COMPILE], { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', () => resolve(undefined)); // no interpreter: the grading reports that itself
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(out) : undefined));
    child.stdin.on('error', () => undefined); // a child that died early closes its stdin
    child.stdin.end(source);
  });
}
