// The original ShellOnYou load test's client (k6/lib/original.js, scenario-original.js) and the
// calibration that judges its steps (calibrate.ts originalStepOf): what it sends, what it counts,
// how one step is injected and when a step is sustained.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, scenarioOptions } from '../../k6/lib/config.js';
import { classify } from '../../k6/lib/outcome.js';
import { callHeaders, GATLING_OK_STATUSES, loginExpected, ORIGINAL_REQUESTS, ORIGINAL_STEP, preflightHeaders } from '../../k6/lib/original.js';
import { bisectSustainable, calibrationNames, calibrationMarkdown, originalStepOf, SCENARIO_PROTOCOL, stepOf, type Calibration } from '../src/calibrate';
import type { PaperMetrics } from '../src/types';
import { aggregatedFixture, smokePaper } from './support';

const profiles = JSON.parse(readFileSync(join(__dirname, '..', '..', 'k6', 'profiles.json'), 'utf8')) as Record<string, unknown>;

describe("the original load test's requests", () => {
  it('are its five pairs in its order, the last one expecting 401', () => {
    expect(ORIGINAL_REQUESTS.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/user/login',
      'GET /api/auth/verify',
      'POST /api/exercise-production',
      'DELETE /api/user/logout',
      'GET /api/auth/verify',
    ]);
    expect(ORIGINAL_REQUESTS.map((r) => r.expected === GATLING_OK_STATUSES)).toEqual([true, true, true, true, false]);
    expect(ORIGINAL_REQUESTS[4].expected).toEqual([401]);
  });

  it("count as Gatling's default check does: 2xx up to 210 and 304 OK, a 503 a KO whatever its Retry-After", () => {
    const sps = ORIGINAL_REQUESTS[2];
    expect(classify(201, sps.expected, 0, 100, 60_000).outcome).toBe('ok');
    // A sync variant's 202 is what Gatling counts OK too (scenario R does not).
    expect(classify(202, sps.expected, 0, 100, 60_000).outcome).toBe('ok');
    expect(classify(503, sps.expected, 0, 5, 60_000)).toEqual({ outcome: 'ko', cause: 'gateway_5xx' });
    expect(classify(401, ORIGINAL_REQUESTS[4].expected, 0, 5, 60_000).outcome).toBe('ok');
    expect(classify(200, ORIGINAL_REQUESTS[4].expected, 0, 5, 60_000).outcome).toBe('ko');
  });

  it("checks the login's body as jsonPath($.email) does: a 200 without an email is a KO", () => {
    expect(loginExpected(200, JSON.stringify({ email: 'student1@shellgrade.test', user_id: 1 }))).toBe(GATLING_OK_STATUSES);
    expect(classify(200, loginExpected(200, JSON.stringify({ user_id: 1 })), 0, 5, 60_000).outcome).toBe('ko');
    expect(classify(200, loginExpected(200, 'not json'), 0, 5, 60_000).outcome).toBe('ko');
    expect(classify(503, loginExpected(503, '{"title":"busy"}'), 0, 5, 60_000).outcome).toBe('ko');
  });

  it("sends the SPA's headers, and preflights naming the non-simple ones", () => {
    const login = ORIGINAL_REQUESTS[0];
    const logout = ORIGINAL_REQUESTS[3];
    expect(callHeaders(login, 'http://localhost:4200', 'tp')).toEqual({
      Accept: 'application/json, text/plain, */*', 'Cache-Control': 'no-cache', 'Content-Language': 'en', 'Content-Type': 'application/json', Origin: 'http://localhost:4200', traceparent: 'tp',
    });
    expect(callHeaders(logout, 'o', 'tp')['Content-Type']).toBeUndefined();
    expect(preflightHeaders(login, 'o')).toEqual({ Origin: 'o', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'cache-control,content-type,traceparent' });
    expect(preflightHeaders(logout, 'o')['Access-Control-Request-Method']).toBe('DELETE');
  });
});

describe("one step of the original's protocol (profile original)", () => {
  it('is a quiet spell, a 10 s ramp from 1/s and 60 s at the rate, Poisson arrivals, no retries', () => {
    const cfg = loadConfig({ profile: 'original', peak: 12 }, profiles);
    expect(cfg).toMatchObject({ client: 'original', quietS: ORIGINAL_STEP.quietS, rampS: ORIGINAL_STEP.rampS, holdS: ORIGINAL_STEP.holdS, pauseS: ORIGINAL_STEP.pauseS, timeoutS: 60, arrivals: 'exponential', honourRetryAfter: false });
    const s = scenarioOptions(cfg);
    expect(s.startRate).toBe(cfg.oversample);
    expect(s.stages).toEqual([
      { target: 12 * cfg.oversample, duration: '10s' },
      { target: 12 * cfg.oversample, duration: '60s' },
    ]);
    expect(SCENARIO_PROTOCOL.original).toEqual({ profile: 'original', rampS: 10, holdS: 60, warmUp: 'never' });
  });

  it('is refused with retries or a suite, and scenario R stays the default client', () => {
    const retrying = { ...profiles, o: { ...(profiles.original as object), honourRetryAfter: true } };
    expect(() => loadConfig({ profile: 'o' }, retrying)).toThrow(/never retries/);
    expect(() => loadConfig({ profile: 'x' }, { ...profiles, x: { ...(profiles.small as object), client: 'gatling' } })).toThrow(/client must be r or original/);
    expect(loadConfig({ profile: 'small' }, profiles)).toMatchObject({ client: 'r', quietS: 0 });
  });
});

describe("a calibration step as the original's client sees it", () => {
  const paper = (p: Partial<PaperMetrics>): Partial<PaperMetrics> => p;
  const at = (p: Partial<PaperMetrics>, opts: { valid?: boolean } = {}) => aggregatedFixture('naked-mon-zygote', 'monolith', {}, [p], opts);
  const sps = (p95: number) => ({ ...smokePaper().sps, p95 });

  it('is sustained with 0 KO of any request and SPS p95 ≤ 2 s over the whole step', () => {
    expect(originalStepOf(8, at(paper({ KO: 0, sps: sps(2000) })))).toMatchObject({ peak: 8, sustained: true, saturated: false, ko: 0 });
    expect(originalStepOf(8, at(paper({ KO: 0, sps: sps(2001) })))).toMatchObject({ sustained: false, saturated: false });
  });

  it('fails on a single refused login, where scenario R (SPS-only) would pass it', () => {
    const oneLogin = paper({ KO: 1, koCauses: { gateway_5xx: 1 }, perType: { login: { ok: 89, ko: 1, p50: 5, p95: 9, p99: 9, max: 9 } }, sps: sps(700) });
    const step = originalStepOf(10, at(oneLogin));
    expect(step).toMatchObject({ sustained: false, saturated: true, ko: 1, koCauses: { gateway_5xx: 1 }, koByType: { login: 1 } });
    expect(stepOf(10, at({ ...oneLogin, sps: { ...sps(700), throughputHold: 10 } })).sustained).toBe(true);
  });

  it('fails in an INVALID run (the measurement failed, the calibration measures it again)', () => {
    expect(originalStepOf(8, at(paper({ KO: 0, sps: sps(500) }), { valid: false })).sustained).toBe(false);
  });

  it('bisects to the highest such step and names its files apart from scenario R', async () => {
    const capacity = 44;
    await expect(bisectSustainable(40, 48, async (r) => r <= capacity)).resolves.toMatchObject({ sustained: 44, failed: 45 });
    expect(calibrationNames('original')).toEqual({ probe: 'calibrate-original', file: 'calibration-original' });
    expect(calibrationNames('r')).toEqual({ probe: 'calibrate', file: 'calibration' });
  });

  it("prints the KO of each step and the original's rule", () => {
    const failed = originalStepOf(10, at(paper({ KO: 6, koCauses: { gateway_5xx: 6 }, perType: { login: { ok: 1, ko: 6, p50: 1, p95: 1, p99: 1, max: 1 } }, sps: sps(700) })));
    const c: Calibration = { variant: 'naked-mon-zygote', scenario: 'original', rampS: 10, holdS: 60, baselineGradingsPerS: null, steps: [failed], recommendedPeak: null, sustainableRate: 8, firstFailedRate: 10 };
    const md = calibrationMarkdown(c);
    expect(md).toContain("with the original load test's client");
    expect(md).toContain('| 6 (6 on login, 6 gateway_5xx) |');
    expect(md).toContain('**8 it/s** (10 it/s fails)');
  });
});
