import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/*
 * Comments and docs refer to nothing a clone does not contain: not the numbered sections of a
 * design document kept outside the repository, not files beside the checkout, not the tracker's
 * issue numbers. A reader of the code has the tree; docs/design.md (by section name),
 * ARCHITECTURE.md and the READMEs are where a "see" points. The patterns are spelled in pieces so
 * this file does not match itself.
 */
const repo = resolve(__dirname, '..');

const OUTSIDE = [
  { what: 'a numbered section of the old design document (name a section of docs/design.md)', re: new RegExp('DESIGN' + ' \u00a7') },
  { what: 'a path beside the repository', re: new RegExp('\\.\\./' + 'shared') },
  { what: 'a tracker issue (say why instead)', re: new RegExp('issue' + ' [0-9]+', 'i') },
];

/** Every tracked file: sources of each language (TypeScript, JavaScript, Python, C, SQL, CSS, shell), docs, configs. */
function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '');
}

/** Every line of `files` that names something outside the repository, as `path:line: what`. */
function outsideReferences(files: string[], read: (file: string) => string): string[] {
  const hits: string[] = [];
  for (const file of files) {
    read(file)
      .split('\n')
      .forEach((line, i) => {
        for (const { what, re } of OUTSIDE) if (re.test(line)) hits.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 160)}`);
      });
  }
  return hits;
}

describe('references outside the repository', () => {
  it('finds each kind of reference it forbids (the search itself can fail)', () => {
    const text: Record<string, string> = {
      'a.ts': `// see DESIGN ${'\u00a7'}8\nconst ok = 1;`,
      'b.md': `from ..${'/'}shared/papers/000.txt`,
      'c.yaml': `description: added for issue ${'3'}1`,
      'd.ts': '// the issue is the event loop; 31 ms',
      'e.ts': ` * Issue ${'2'}0, teachers in a real browser`,
    };
    expect(outsideReferences(Object.keys(text), (f) => text[f]!)).toEqual([
      expect.stringMatching(/^a\.ts:1: a numbered section/),
      expect.stringMatching(/^b\.md:1: a path beside/),
      expect.stringMatching(/^c\.yaml:1: a tracker issue/),
      expect.stringMatching(/^e\.ts:1: a tracker issue/),
    ]);
  });

  it('no tracked source, test, script, config or doc names one', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const hits = outsideReferences(files, (f) => {
      let text: string;
      try {
        text = readFileSync(join(repo, f), 'utf8');
      } catch {
        return ''; // tracked but deleted in the working tree (a rename in progress)
      }
      return text.includes('\0') ? '' : text; // binary: an archive fixture, an image
    });
    expect(hits).toEqual([]);
  });
});
