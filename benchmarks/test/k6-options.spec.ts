// The runner → k6 options file (benchmarks/src/k6-options.ts): its schema, its writer, the k6
// invocation that hands k6 only its path, and the fields the k6 scripts read (all in the schema).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { K6_OPTIONS_ENV, K6_OPTIONS_SCHEMA, k6OptionsArgs, mixOptionsSchema, parseK6Options, readK6Options, spsOptionsSchema, sweepOptionsSchema, writeK6Options, type K6OptionsInput, type SpsK6Options } from '../src/k6-options';
import { k6Invocation } from '../src/k6-run';
import { repoRoot } from '../src/paths';

const work = mkdtempSync(join(tmpdir(), 'sg-k6-options-'));

const sps: K6OptionsInput<SpsK6Options> = {
  script: 'sps',
  profile: 'smoke',
  baseUrl: 'http://127.0.0.1:3000',
  usersCsv: '/r/users.csv',
  archive: '/r/good.tgz',
  summaryJson: '/r/k6-run-1.json',
  summaryTxt: '/r/k6-run-1.txt',
  logSps: true,
  logRequests: false,
  reply: 'sync',
};

describe('k6 options schema', () => {
  it('accepts the runner’s options, each script’s own fields', () => {
    expect(parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, peak: 3, steps: [{ rate: 2, holdS: 5 }], connectionReuse: false }).script).toBe('sps');
    expect(parseK6Options({ schema: K6_OPTIONS_SCHEMA, script: 'mix', profile: 'mix-smoke', baseUrl: 'http://127.0.0.1:3100', usersCsv: '/u.csv', summaryJson: '/m.json', pattern: 'offloading', aggregated: false, ps: [0, 0.5] }).script).toBe('mix');
    expect(parseK6Options({ schema: K6_OPTIONS_SCHEMA, script: 'sweep', profile: 'sweep-smoke', baseUrl: 'http://127.0.0.1:3000', usersCsv: '/u.csv', summaryJson: '/s.json', class: 's2', vus: [1, 2] }).script).toBe('sweep');
  });

  it('a missing field is named', () => {
    const { summaryJson: _, ...missing } = sps;
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...missing })).toThrow(/summaryJson: /);
  });

  it('a wrong type, an unknown field (a typo), a bad step, a bad URL, a bad switch are named', () => {
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, peak: '3' })).toThrow(/peak: /);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, paek: 3 })).toThrow(/paek/);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, steps: [{ rate: 1.5, holdS: 5 }] })).toThrow(/steps\.0\.rate: /);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, baseUrl: '127.0.0.1:3000' })).toThrow(/baseUrl: /);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, thresholds: 'on' })).toThrow(/thresholds: /);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, reply: 'later' })).toThrow(/reply: /);
  });

  it('another schema version or script is refused', () => {
    expect(() => parseK6Options({ ...sps, schema: 'shellgrade.k6-options/0' })).toThrow(/schema: /);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, script: 'soak' })).toThrow(/script: /);
    expect(() => parseK6Options({ schema: K6_OPTIONS_SCHEMA, ...sps, script: 'mix' })).toThrow(/pattern: /);
  });
});

describe('k6 options writer', () => {
  it('writes the validated options with their schema tag and reads them back', () => {
    const file = join(work, 'k6-options-ok.json');
    const written = writeK6Options<SpsK6Options>(file, { ...sps, peak: 4 });
    expect(written.schema).toBe(K6_OPTIONS_SCHEMA);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ schema: K6_OPTIONS_SCHEMA, ...sps, peak: 4 });
    expect(readK6Options(file)).toEqual(written);
  });

  it('writes nothing and names the file and the field when the options are invalid', () => {
    const file = join(work, 'k6-options-bad.json');
    expect(() => writeK6Options(file, { ...sps, usersCsv: '' })).toThrow(new RegExp(`k6 options for ${file} is not a valid ${K6_OPTIONS_SCHEMA} file: usersCsv: `));
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it('a file that is not JSON is named when read', () => {
    const file = join(work, 'k6-options-broken.json');
    writeFileSync(file, '{');
    expect(() => readK6Options(file)).toThrow(new RegExp(`k6 options ${file}: `));
  });

  it('k6 gets the file’s path as its only variable', () => {
    expect(k6OptionsArgs('/r/o.json')).toEqual(['-e', `${K6_OPTIONS_ENV}=/r/o.json`]);
  });
});

describe('k6 invocation of a run', () => {
  it('writes k6-options-<tag>.json into the run folder and passes k6 nothing else', () => {
    const dir = mkdtempSync(join(work, 'run-'));
    const inv = k6Invocation({ k6: 'k6', dir, tag: 'run-1', entry: 'http://127.0.0.1:3000', usersCsv: join(dir, 'users.csv'), profile: 'small', overrides: { reply: 'async', peak: 5 }, dashboard: true });
    expect(inv.optionsFile).toBe(join(dir, 'k6-options-run-1.json'));
    expect(readK6Options(inv.optionsFile)).toEqual(inv.options);
    expect(inv.options).toMatchObject({ script: 'sps', profile: 'small', reply: 'async', peak: 5, logSps: true, summaryJson: join(dir, 'k6-run-1.json'), productionData: join(dir, 'production-data.json') });
    expect(inv.args.filter((a) => a === '-e')).toHaveLength(1);
    expect(inv.args).toContain(`${K6_OPTIONS_ENV}=${inv.optionsFile}`);
    expect(inv.processEnv.K6_WEB_DASHBOARD_EXPORT).toBe(join(dir, 'k6-dashboard-run-1.html'));
  });

  it("k6's Go collector runs less often (GOGC 400) unless the runner's environment sets GOGC", () => {
    const dir = mkdtempSync(join(work, 'run-'));
    const invocation = () => k6Invocation({ k6: 'k6', dir, tag: 'g', entry: 'http://127.0.0.1:3000', usersCsv: 'u.csv', profile: 'smoke', overrides: { reply: 'sync' } });
    const before = process.env.GOGC;
    try {
      delete process.env.GOGC;
      expect(invocation().processEnv.GOGC).toBe('400');
      process.env.GOGC = '100';
      expect(invocation().processEnv.GOGC).toBeUndefined(); // the runner's own, inherited by k6
    } finally {
      if (before === undefined) delete process.env.GOGC;
      else process.env.GOGC = before;
    }
  });

  it('LOG_REQUESTS=on in the runner’s environment turns the request lines on; an override wins', () => {
    const dir = mkdtempSync(join(work, 'run-'));
    const before = process.env.LOG_REQUESTS;
    process.env.LOG_REQUESTS = 'on';
    try {
      expect(k6Invocation({ k6: 'k6', dir, tag: 'a', entry: 'http://127.0.0.1:3000', usersCsv: 'u.csv', profile: 'smoke', overrides: { reply: 'sync' } }).options.logRequests).toBe(true);
      expect(k6Invocation({ k6: 'k6', dir, tag: 'b', entry: 'http://127.0.0.1:3000', usersCsv: 'u.csv', profile: 'smoke', overrides: { reply: 'sync', logRequests: false } }).options.logRequests).toBe(false);
    } finally {
      if (before === undefined) delete process.env.LOG_REQUESTS;
      else process.env.LOG_REQUESTS = before;
    }
  });

  it('an invalid override stops the run before k6 starts', () => {
    const dir = mkdtempSync(join(work, 'run-'));
    expect(() => k6Invocation({ k6: 'k6', dir, tag: 'run-1', entry: 'not a url', usersCsv: 'u.csv', profile: 'smoke', overrides: { reply: 'sync' } })).toThrow(/baseUrl: /);
  });
});

describe('the k6 scripts read only fields of the schema', () => {
  // Option reads in the scripts: sg.<field>, options.<field>, and numberOption/booleanOption/urlOption(<obj>, '<field>').
  const fieldsRead = (file: string): string[] => {
    const text = readFileSync(join(repoRoot(), file), 'utf8');
    const fields = new Set<string>();
    for (const m of text.matchAll(/(?<![-\w/])(?:sg|options)\.([a-zA-Z]+)\b/g)) fields.add(m[1]);
    for (const m of text.matchAll(/\b(?:number|boolean|url)Option\((?:sg|options), '([a-zA-Z]+)'/g)) fields.add(m[1]);
    return [...fields].sort();
  };
  const keys = (schema: { shape: object }) => Object.keys(schema.shape);

  it.each([
    ['benchmarks/sps.js', spsOptionsSchema],
    ['k6/lib/config.js', spsOptionsSchema],
    ['benchmarks/mix.js', mixOptionsSchema],
    ['benchmarks/sweep.js', sweepOptionsSchema],
  ])('%s', (file, schema) => {
    const read = fieldsRead(file);
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((f) => !keys(schema).includes(f))).toEqual([]);
  });

  it('the scripts read no variable but the options file’s path', () => {
    for (const file of ['benchmarks/sps.js', 'benchmarks/mix.js', 'benchmarks/sweep.js', 'k6/lib/config.js', 'k6/lib/scenario-r.js']) {
      const text = readFileSync(join(repoRoot(), file), 'utf8');
      expect([...text.matchAll(/__ENV\b(?!, \(file\) => open\(file\))/g)].map((m) => m.index)).toEqual([]);
    }
  });
});
