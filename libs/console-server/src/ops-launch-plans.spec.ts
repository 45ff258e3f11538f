import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchArgs } from '@shellgrade/console-contract';
import { checkLaunch, planOffers } from './ops-launch-plans';
import type { BenchCli } from './ops-bench-cli';

let dir: string;
let bench: BenchCli;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-plans-'));
  mkdirSync(join(dir, 'k6'));
  mkdirSync(join(dir, 'results'));
  const profiles = { smoke: { peak: 2 }, small: { peak: 9 }, 'load-smoke': { suite: { kind: 'load' } }, 'soak-smoke': { suite: { kind: 'soak' } }, 'sweep-smoke': { sweep: {} }, 'mix-smoke': { mix: {} } };
  writeFileSync(join(dir, 'k6', 'profiles.json'), JSON.stringify({ _comment: 'x', ...profiles }));
  bench = { node: process.execPath, script: join(dir, 'cli.js'), cwd: dir, resultsDir: join(dir, 'results') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PRESETS = ['naked-mon', 'msa-1-2', 'msa-1-1'];
const check = (body: unknown, ownVariant: string | undefined = 'naked-mon') => checkLaunch(body, { bench, presets: PRESETS, ownVariant });

describe('the plans a console launch may name', () => {
  it('offers every plan of the bench CLI with its profiles; a console served by a variant refuses matrix, findings and faults with the reason, the standalone one none', () => {
    expect(planOffers(bench).map((o) => o.refused)).toEqual([null, null, null, null, null]);
    const offers = planOffers(bench, 'naked-mon');
    expect(offers.map((o) => [o.plan, o.profiles, o.refused === null])).toEqual([
      ['run', ['smoke', 'small'], true],
      ['suite', ['load-smoke', 'soak-smoke'], true],
      ['matrix', ['smoke', 'small'], false],
      ['findings', [], false],
      ['faults', ['smoke', 'small'], false],
    ]);
  });

  it.each([
    [{ plan: 'run', preset: 'naked-mon', profile: 'smoke' }, 'run', ['run', '--variant', 'naked-mon', '--profile', 'smoke']],
    [{ preset: 'naked-mon', profile: 'small', runs: 3, peak: 4.5 }, 'run', ['run', '--variant', 'naked-mon', '--profile', 'small', '--runs', '3', '--peak', '4.5']],
    [{ plan: 'suite', preset: 'naked-mon', profile: 'load-smoke', peak: 1 }, 'suite', ['run', '--variant', 'naked-mon', '--profile', 'load-smoke', '--peak', '1']],
    [{ plan: 'suite', preset: 'naked-mon', profile: 'soak-smoke', saturation: 3 }, 'suite', ['run', '--variant', 'naked-mon', '--profile', 'soak-smoke', '--saturation', '3']],
  ])('launches %j as the %s plan: npm run bench -- %j', (body, plan, args) => {
    const r = check(body);
    expect(r).toMatchObject({ ok: true, request: { plan }, args });
  });

  it.each([
    [{ plan: 'sweep', preset: 'naked-mon', profile: 'smoke' }, /^plan: .*\(the plans: run, suite, matrix, findings, faults\)$/],
    [{ preset: 'naked-mon', profile: 'smoke', rm: '-rf' }, /^rm: not an option of any plan/],
    [{ preset: 'naked-mon', profile: 'smoke', saturation: 3 }, /^saturation: not an option of the run plan \(its options: preset, profile, runs, peak\)$/],
    [{ plan: 'matrix', preset: 'naked-mon', profile: 'smoke' }, /^preset: not an option of the matrix plan/],
    [{ profile: 'smoke' }, /^the run plan names a preset$/],
    [{ preset: 'nope', profile: 'smoke' }, /^no preset "nope"/],
    [{ preset: 'naked-mon; rm -rf /', profile: 'smoke' }, /^preset: a preset name/],
    [{ preset: 'naked-mon' }, /^the run plan names a profile$/],
    [{ preset: 'naked-mon', profile: 'sweep-smoke' }, /^no run profile "sweep-smoke"/],
    [{ preset: 'naked-mon', profile: 'load-smoke' }, /^"load-smoke" is a suite profile: launch it as the suite plan$/],
    [{ plan: 'suite', preset: 'naked-mon', profile: 'smoke' }, /^"smoke" is no suite profile .*: launch it as the run plan$/],
    [{ preset: 'naked-mon', profile: 'smoke', runs: 0 }, /^runs: /],
    [{ preset: 'naked-mon', profile: 'smoke', runs: 2.5 }, /^runs: /],
    [{ preset: 'naked-mon', profile: 'smoke', peak: -1 }, /^peak: /],
    [{ preset: 'naked-mon', profile: 'smoke', runs: '3' }, /^runs: /],
    [{ plan: 'suite', preset: 'naked-mon', profile: 'load-smoke', saturation: 3 }, /^saturation applies to a soak only/],
    [{ plan: 'suite', preset: 'naked-mon', profile: 'soak-smoke' }, /^a soak holds 70 % of naked-mon's sustainable rate: give saturation \(it\/s\), or run npm run bench -- calibrate --variant naked-mon first$/],
    [{ plan: 'matrix', presets: ['naked-mon'], profile: 'smoke' }, /^presets: a matrix names 2 to 8 presets$/],
    [{ plan: 'matrix', presets: ['naked-mon', 'naked-mon'], profile: 'smoke' }, /named twice/],
    [{ plan: 'matrix', presets: ['naked-mon', 'nope'], profile: 'smoke' }, /^no preset "nope"/],
    [{ plan: 'faults', preset: 'naked-mon', profile: 'smoke', faults: 'kill-one:monolith;reboot' }, /^faults: all, or <kind>:<role\|server\|hop>/],
    [{ plan: 'findings', mode: 'huge' }, /^mode: /],
  ])('refuses %j with 400 and the reason', (body, detail) => {
    const r = check(body);
    expect(r).toMatchObject({ ok: false, status: 400 });
    expect(!r.ok && r.detail).toMatch(detail);
  });

  it('a soak with a calibration of its preset on record needs no saturation', () => {
    writeFileSync(join(dir, 'results', '20261101T000000Z-naked-mon-calibration.json'), '{}');
    expect(check({ plan: 'suite', preset: 'naked-mon', profile: 'soak-smoke' })).toMatchObject({ ok: true });
  });

  it.each([
    [{ plan: 'matrix', presets: ['naked-mon', 'msa-1-2'], profile: 'smoke', runs: 2 }, 'npm run bench -- matrix --variants naked-mon,msa-1-2 --profile smoke --runs 2', /^the matrix plan is not launched from the console: a matrix brings up each of its presets in turn/],
    [{ plan: 'findings', mode: 'smoke' }, 'npm run bench -- findings --smoke', /^the findings plan is not launched from the console: .*the variant serving this console would go down/],
    [{ plan: 'faults', preset: 'naked-mon', profile: 'smoke', faults: 'kill-one:monolith,latency:postgres' }, 'npm run bench -- faults --variant naked-mon --faults kill-one:monolith,latency:postgres --profile smoke', /^the faults plan is not launched from the console: a faults run kills, stops and starves/],
  ])('refuses %j with 422: why, and the shell command', (body, command, detail) => {
    const r = check(body);
    expect(r).toMatchObject({ ok: false, status: 422, command });
    expect(!r.ok && r.detail).toMatch(detail);
    expect(!r.ok && r.detail).toMatch(new RegExp(`Run it from a shell: ${command.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}$`));
  });

  it('launches matrix, findings and faults from the standalone console (no variant serves it), with the same arguments', () => {
    expect(checkLaunch({ plan: 'matrix', presets: ['naked-mon', 'msa-1-2'], profile: 'smoke' }, { bench, presets: PRESETS })).toMatchObject({ ok: true, request: { plan: 'matrix' }, args: ['matrix', '--variants', 'naked-mon,msa-1-2', '--profile', 'smoke'] });
    expect(checkLaunch({ plan: 'findings', mode: 'quick' }, { bench, presets: PRESETS })).toMatchObject({ ok: true, args: ['findings', '--quick'] });
    expect(checkLaunch({ plan: 'faults', preset: 'msa-1-2', profile: 'smoke' }, { bench, presets: PRESETS })).toMatchObject({ ok: true, args: ['faults', '--variant', 'msa-1-2', '--faults', 'all', '--profile', 'smoke'] });
  });

  it("refuses with 409 a run or a suite of a preset other than the one serving the console (it would take the console down); any preset when the console's variant is unknown", () => {
    const r = check({ preset: 'msa-1-2', profile: 'smoke' });
    expect(r).toMatchObject({ ok: false, status: 409, command: 'npm run bench -- run --variant msa-1-2 --profile smoke' });
    expect(!r.ok && r.detail).toMatch(/^this console is served by naked-mon, and the launcher holds one variant at a time: bringing up msa-1-2 would take the console down/);
    expect(check({ plan: 'suite', preset: 'msa-1-2', profile: 'load-smoke' })).toMatchObject({ ok: false, status: 409 });
    expect(checkLaunch({ preset: 'msa-1-2', profile: 'smoke' }, { bench, presets: PRESETS })).toMatchObject({ ok: true });
  });

  it("the form's preview and the server's spawn are one function", () => {
    expect(launchArgs({ plan: 'findings' })).toEqual(['findings']);
    expect(launchArgs({ plan: 'faults', preset: 'mon-x2', profile: 'smoke' })).toEqual(['faults', '--variant', 'mon-x2', '--faults', 'all', '--profile', 'smoke']);
  });
});
