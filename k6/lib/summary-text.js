// Text table of one k6 run's paper metrics, printed at the end of `k6 run benchmarks/sps.js`.

function pct(v) {
  return v === null || v === undefined ? 'n/a' : (100 * v).toFixed(2) + '%';
}
function num(v, digits) {
  return v === null || v === undefined ? 'n/a' : Number(v).toFixed(digits);
}

function causes(c) {
  const parts = Object.keys(c || {}).filter((k) => c[k] > 0).map((k) => `${k} ${c[k]}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function summaryText(p, cfg) {
  const rows = [
    ['VUs started (iterations)', String(p.vus)],
    ['N (10 x VUs)', String(p.N)],
    ['OK', String(p.OK)],
    ['KO', String(p.KO)],
    ['KO causes', causes(p.koCauses)],
    ['not sent (after a failed login, or cut)', String(p.notSent)],
    ['Request Acceptance Capability (RAC)', pct(p.RAC)],
    ['Failure Rate (FR)', pct(p.FR)],
    ['EFR as the paper publishes it, (N-OK)/N (efr_paper)', pct(p.efr_paper)],
    ['KO / N (ko_rate)', pct(p.ko_rate)],
    ['FR (Req-SPS)', pct(p.sps.FR)],
    ['efr_paper (Req-SPS)', pct(p.sps.efr_paper)],
    ['ko_rate (Req-SPS)', pct(p.sps.ko_rate)],
    ['iterations OK / KO', `${p.iterations.ok} / ${p.iterations.ko} (${causes(p.iterations.koCauses)})`],
    ['Response time < 800 ms', pct(p.buckets.lt800)],
    ['800 ms <= response time < 1200 ms', pct(p.buckets.b800_1200)],
    ['1200 ms <= response time', pct(p.buckets.ge1200)],
    [`Apdex (T=${cfg.apdexTMs} ms, F=${cfg.apdexFMs} ms, all requests, KO frustrated)`, num(p.apdex, 2)],
    ['System Throughput (OK/s)', num(p.throughput, 2)],
    ['SPS throughput (OK/s, whole run)', num(p.sps.throughput, 2)],
    ['SPS throughput (OK/s, sustained stage)', num(p.sps.throughputHold, 2)],
    ['p50 / p95 / p99 OK (ms)', `${num(p.p50, 0)} / ${num(p.p95, 0)} / ${num(p.p99, 0)}`],
    ['p50 / p95 / p99 SPS OK (ms)', `${num(p.sps.p50, 0)} / ${num(p.sps.p95, 0)} / ${num(p.sps.p99, 0)}`],
    ['time to feedback p50 / p95 / max (ms)', p.feedback ? `${num(p.feedback.p50, 0)} / ${num(p.feedback.p95, 0)} / ${num(p.feedback.max, 0)}` : 'n/a'],
    ['feedback by reply / by polling / none in time', p.feedback ? `${p.feedback.reply} / ${p.feedback.polled} / ${p.feedback.missing}` : 'n/a'],
    ['polls (failed)', p.feedback ? `${p.feedback.polls} (${p.feedback.pollsFailed})` : 'n/a'],
    ['dropped iterations', String(p.droppedIterations)],
    ['client-side errors (script exceptions)', String(p.clientErrors)],
  ];
  const width = rows.reduce((w, r) => Math.max(w, r[0].length), 0);
  const title = `shellgrade ${cfg.client === 'original' ? "scenario R played by the original load test's client" : 'scenario R'} — profile ${cfg.profile}, peak ${cfg.peak}/s (${cfg.arrivals} arrivals, connection reuse ${cfg.connectionReuse ? 'on' : 'off'}), ${cfg.rampS}s ramp + ${cfg.holdS}s hold, pauses ${cfg.pauseS}s, ${cfg.baseUrl} — whole test (tables use the hold stage)`;
  return [title, '-'.repeat(title.length)]
    .concat(rows.map((r) => r[0].padEnd(width + 2, ' ') + r[1]))
    .join('\n') + '\n';
}
