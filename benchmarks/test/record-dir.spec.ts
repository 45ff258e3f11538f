// A second findings run (or reproduction) on the same day gets a folder of its own: the full run of
// 2026-12-06 once wrote its record over that morning's --quick one, in results/findings/2026-12-06.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newRecordDir } from '../src/paths';

let parent: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'sg-records-'));
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

const at = new Date('2026-12-06T15:21:45Z');

describe('newRecordDir', () => {
  it("is the day's folder while that holds no record (an empty or half-made folder included)", () => {
    expect(newRecordDir(parent, 'findings-runs.json', at)).toBe(join(parent, '2026-12-06'));
    mkdirSync(join(parent, '2026-12-06'));
    writeFileSync(join(parent, '2026-12-06', 'findings.md'), '');
    expect(newRecordDir(parent, 'findings-runs.json', at)).toBe(join(parent, '2026-12-06'));
  });

  it("is a folder named to the minute once the day's holds a record, sorting between the days", () => {
    mkdirSync(join(parent, '2026-12-06'));
    writeFileSync(join(parent, '2026-12-06', 'findings-runs.json'), '{}');
    const second = newRecordDir(parent, 'findings-runs.json', at);
    expect(second).toBe(join(parent, '2026-12-06T1521Z'));
    expect(['2026-12-07', '2026-12-06T1521Z', '2026-12-06', '2026-12-05'].sort()).toEqual(['2026-12-05', '2026-12-06', '2026-12-06T1521Z', '2026-12-07']);
  });
});
