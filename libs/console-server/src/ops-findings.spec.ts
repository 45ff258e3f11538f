import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { EXEMPLAR_P50, EXEMPLAR_P99, findingsHtml, findingsJson, reportFixtureIds, writeReportFixtures, type ReportFixtureIds } from './ops-findings.fixtures';
import { serveAppWithConsole } from './console-routes';

let root: string;
let results: string;
let ids: ReportFixtureIds;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-findings-'));
  results = join(root, 'results');
  ids = reportFixtureIds('20261201T0000', 't');
  writeReportFixtures(results, ids);
  writeFileSync(join(root, 'secret.md'), 'secret');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function entry(admin: boolean | null = true, dir = results) {
  const app = express();
  serveAppWithConsole(app, { dir: join(root, 'no-build'), maxArchiveBytes: 4096, opsAccess: 'internal', resultsDir: dir, ...(admin === null ? {} : { isAdmin: async () => admin }) });
  app.use((_req, res) => res.status(418).end());
  return app;
}

describe("findings.html's relative links in the console", () => {
  const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);

  it('every link of the report served at /ops/runs/findings/<id>/ opens its run, breakdown or compare page (200)', async () => {
    const page = `/ops/runs/findings/${ids.findings}/findings.html`;
    const res = await request(entry()).get(page);
    expect(res.status).toBe(200);
    expect(res.text).toBe(findingsHtml(ids));
    expect(res.headers['content-security-policy']).toMatch(/^sandbox allow-scripts allow-popups/);
    const links = hrefs(res.text);
    expect(links.every((h) => !/^[a-z]+:|^\//i.test(h))).toBe(true);
    const opened: [string, number, string][] = [];
    for (const href of links) {
      const url = new URL(href, `http://console${page}`).pathname;
      const r = await request(entry()).get(url);
      opened.push([url, r.status, r.headers['content-type'] ?? '']);
    }
    expect(opened).toEqual([
      [`/ops/runs/${ids.mon1}/`, 200, 'text/html; charset=utf-8'],
      [`/ops/runs/${ids.mon1}/breakdown.html`, 200, 'text/html; charset=utf-8'],
      [`/ops/runs/${ids.msa1}/`, 200, 'text/html; charset=utf-8'],
      [`/ops/runs/findings/${ids.findings}/compare/naked-mon-vs-msa-1-1/compare.html`, 200, 'text/html; charset=utf-8'],
    ]);
  });

  it("a run folder's index links its report files relatively, and they open", async () => {
    const index = `/ops/runs/${ids.mon1}/`;
    const res = await request(entry()).get(index);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox allow-popups; frame-ancestors 'none'/);
    const links = hrefs(res.text);
    expect(links).toEqual(expect.arrayContaining(['breakdown.html', 'report/report.html']));
    for (const href of links) expect([href, (await request(entry()).get(new URL(href, `http://console${index}`).pathname)).status]).toEqual([href, 200]);
    expect((await request(entry()).get('/ops/runs/29990101T000000Z-none/')).status).toBe(404);
  });

  it('is for admins only under /ops/runs/ too, and serves no JSON view nor a path out of the folder there', async () => {
    for (const admin of [false, null]) {
      const res = await request(entry(admin)).get(`/ops/runs/findings/${ids.findings}/findings.html`);
      expect([admin, res.status, res.headers['content-type']]).toEqual([admin, 404, expect.stringMatching(/^application\/problem\+json/)]);
    }
    expect((await request(entry()).get(`/ops/runs/findings/${ids.findings}`)).status).toBe(404);
    expect((await request(entry()).get(`/ops/runs/findings/${ids.findings}/..%2F..%2F..%2Fsecret.md`)).status).toBe(404);
  });
});

describe('GET /ops/findings (admins only)', () => {
  it.each([
    [false, '/ops/findings'],
    [false, '/ops/findings/e2e-t'],
    [false, '/ops/findings/e2e-t/findings.html'],
    [null, '/ops/findings'],
  ])('answers 404 problem+json to a non-admin (admin: %s) on %s, loopback or not', async (admin, path) => {
    const res = await request(entry(admin)).get(path.replace('e2e-t', ids.findings));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(res.body)).not.toMatch(/reproduced|findings\.html/);
  });

  it('lists the findings folders with their verdict counts and report files', async () => {
    const res = await request(entry()).get('/ops/findings');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.findings).toEqual([
      {
        id: ids.findings,
        mode: 'smoke',
        startedAt: '2999-12-31T00:00:00.000Z',
        endedAt: '2999-12-31T00:10:00.000Z',
        counts: { reproduced: 1, refuted: 1, inconclusive: 1, 'not testable': 0 },
        files: ['compare/naked-mon-vs-msa-1-1/compare.html', 'findings.html', 'findings.md'],
      },
    ]);
  });

  it('returns one folder: each claim with its verdict and comparisons, the cells split into runs, a link per run with its traces', async () => {
    const res = await request(entry()).get(`/ops/findings/${ids.findings}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.results.map((r: { claim: { id: string }; verdict: string }) => [r.claim.id, r.verdict])).toEqual([
      ['i', 'reproduced'],
      ['ii', 'refuted'],
      ['iii', 'inconclusive'],
    ]);
    // Only what the contract declares: the harness's other fields (claim.tests, design, welch) are not sent.
    expect(body.results[0].claim).toEqual({ id: 'i', title: 'MSA outperforms the monolith, nothing replicated', quote: 'when no app component is replicated, MSA outperforms the monolithic architecture' });
    expect(body.results[0].design).toBeUndefined();
    expect(body.results[0].parts[0].comparison).toEqual({ rank: { p: 0.01, cliffsDelta: -0.9, magnitude: 'large' }, tost: null });
    expect(body.cells).toEqual({ 'msa-1-1@1x': [ids.msa1, ids.msa2], 'naked-mon@1x': [ids.mon1, ids.mon2] });
    expect(body.record).toMatchObject({ mode: 'smoke', seed: 20261127, paper: { multiple: null, notFound: 'no VALID probe measured EFR in 1 probes (1 INVALID)' } });
    expect(Object.keys(body.runs).sort()).toEqual([ids.mon1, ids.mon2, ids.msa1, ids.msa2].sort());
    expect(body.runs[ids.mon1]).toEqual({
      id: ids.mon1,
      present: true,
      variant: 'naked-mon',
      report: 'report/report.html',
      breakdown: 'breakdown.html',
      traces: [
        { label: 'p50 exemplar (120 ms)', traceId: EXEMPLAR_P50 },
        { label: 'p99 exemplar (480 ms)', traceId: EXEMPLAR_P99 },
      ],
    });
    expect(body.runs[ids.msa2]).toMatchObject({ present: true, variant: 'msa-1-1', breakdown: null, traces: [] });
  });

  it('names a run that is gone as not present', async () => {
    rmSync(join(results, ids.msa2), { recursive: true });
    const res = await request(entry()).get(`/ops/findings/${ids.findings}`);
    expect(res.body.runs[ids.msa2]).toEqual({ id: ids.msa2, present: false, variant: null, report: null, breakdown: null, traces: [] });
  });

  it('returns a run stopped before its evaluation: the record, no results', async () => {
    unlinkSync(join(results, 'findings', ids.findings, 'findings.json'));
    const res = await request(entry()).get(`/ops/findings/${ids.findings}`);
    expect(res.status).toBe(200);
    expect(res.body.results).toBeNull();
    expect(res.body.record.runs['naked-mon@1x']).toEqual([ids.mon1, ids.mon2]);
    expect(Object.keys(res.body.runs)).toHaveLength(4);
    const list = await request(entry()).get('/ops/findings');
    expect(list.body.findings[0].counts).toBeNull();
  });

  it.each([
    ['..%2F..%2Fsecret.md', 400, /is not a findings folder name/],
    ['.hidden', 400, /is not a findings folder name/],
    ['%E0%A4%A', 400, /does not decode/],
    ['no-such', 404, /no findings folder "no-such" in the results folder/],
  ])('refuses the folder %s with %i problem+json and a reason, never a host path', async (name, status, detail) => {
    const res = await request(entry()).get(`/ops/findings/${name}`);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(detail);
    expect(JSON.stringify(res.body)).not.toContain(root);
  });

  it('answers 422 with the first mismatch when findings.json does not match, naming no host path', async () => {
    const bad = findingsJson(ids) as { results: { verdict: string }[] };
    bad.results[1]!.verdict = 'maybe';
    writeFileSync(join(results, 'findings', ids.findings, 'findings.json'), JSON.stringify(bad));
    const res = await request(entry()).get(`/ops/findings/${ids.findings}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(new RegExp(`^findings folder "${ids.findings}": findings\\.json does not match its format: results\\.1\\.verdict: `));
    expect(JSON.stringify(res.body)).not.toContain(root);
    writeFileSync(join(results, 'findings', ids.findings, 'findings.json'), '{not json');
    const res2 = await request(entry()).get(`/ops/findings/${ids.findings}`);
    expect(res2.body.detail).toBe(`findings folder "${ids.findings}": findings.json is not JSON`);
    // The list still answers, with the folder's reason.
    const list = await request(entry()).get('/ops/findings');
    expect(list.body.findings[0]).toMatchObject({ id: ids.findings, counts: null, error: 'findings.json is not JSON' });
  });

  it('serves a report file of the folder, sandboxed, and nothing outside the results folder', async () => {
    const html = await request(entry()).get(`/ops/findings/${ids.findings}/findings.html`);
    expect(html.status).toBe(200);
    expect(html.text).toBe(findingsHtml(ids));
    expect(html.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    const inner = await request(entry()).get(`/ops/findings/${ids.findings}/compare/naked-mon-vs-msa-1-1/compare.html`);
    expect(inner.text).toBe('<h1>compare</h1>');
    symlinkSync(join(root, 'secret.md'), join(results, 'findings', ids.findings, 'leak.md'));
    for (const file of ['leak.md', '..%2F..%2F..%2Fsecret.md', '..', 'findings-runs.yaml', 'a/b/c/d.md']) {
      const res = await request(entry()).get(`/ops/findings/${ids.findings}/${file}`);
      expect([file, res.status]).toEqual([file, 404]);
      expect(res.text).not.toContain('secret');
    }
  });

  it('answers an entry point without results folder 404, and lists none where there is no findings folder', async () => {
    const none = await request(entry(true, join(root, 'nowhere'))).get('/ops/findings');
    expect(none.body).toEqual({ findings: [] });
    mkdirSync(join(results, 'findings', 'empty'));
    const list = await request(entry()).get('/ops/findings');
    expect(list.body.findings.map((f: { id: string }) => f.id)).toEqual([ids.findings]);
  });
});
