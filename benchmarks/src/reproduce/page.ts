// The scorecard as one page, Markdown and HTML from the same blocks (findings/blocks.ts): the
// rankings' ρ first, then per configuration our figure beside the paper's, then Table III's memory
// ranking. The HTML adds the figures side by side — per ranked metric the paper's and our values
// per configuration, and our rank against the paper's — with Chart.js inlined (report/html.ts).
import { toHtml, toMarkdown, type Block } from '../findings/blocks';
import { chartJs, escapeHtml } from '../report/html';
import { NOMINAL_CAPACITY } from '../findings/plan';
import { PAPER_000_TABLE_III } from './paper-000';
import { SCORE_METRICS, type Ours, type Ranking, type Scorecard, type ScoreMetric } from './scorecard';

type Kind = 'share' | 'index' | 'rate';

const KIND: Record<ScoreMetric | 'memory', Kind> = { ...Object.fromEntries(SCORE_METRICS.map((m) => [m.key, m.kind])), memory: 'share' } as Record<ScoreMetric | 'memory', Kind>;
const LABEL: Record<ScoreMetric | 'memory', string> = { ...Object.fromEntries(SCORE_METRICS.map((m) => [m.key, m.label])), memory: 'memory (Table III)' } as Record<ScoreMetric | 'memory', string>;

function fmt(v: number, kind: Kind): string {
  if (kind === 'share') return `${(100 * v).toFixed(Math.abs(v) < 0.1 ? 2 : 1)} %`;
  if (kind === 'index') return v.toFixed(2);
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1);
}

function oursText(o: Ours, kind: Kind): string {
  if (o.mean === null) return 'n/a';
  return o.half === null ? fmt(o.mean, kind) : `${fmt(o.mean, kind)} ±${fmt(o.half, kind).replace(' %', '')}`;
}

const paperText = (v: number | null, kind: Kind): string => (v === null ? '—' : fmt(v, kind));

/** "ρ = 0.94 [0.53, 0.99] (n = 6)", or why there is none. */
export function rhoText(r: Ranking): string {
  const x = r.rho;
  if (x.rho === null) return `no ρ (n = ${x.n}${x.n >= 3 ? ': one side ranks every configuration equal' : ''})`;
  const ci = x.lo === null ? 'no interval' : `[${x.lo.toFixed(2)}, ${x.hi!.toFixed(2)}]`;
  return `ρ = ${x.rho.toFixed(2)} ${ci} (n = ${x.n})`;
}

export function rankingRows(s: Scorecard): string[][] {
  return s.rankings.map((r) => [LABEL[r.metric], rhoText(r), r.why]);
}

function setupText(s: Scorecard): string {
  const m = s.machine;
  const load = s.peak === null ? 'no paper-equivalent load was found' : `every configuration at ${s.peak} it/s (${s.multiple ?? '?'}× ${s.capacity.source === NOMINAL_CAPACITY.source ? 'a nominal unit' : "naked-mon's sustainable rate"} of ${s.capacity.rate} it/s${s.searchEfr !== null ? `, where naked-mon's EFR was ${(100 * s.searchEfr).toFixed(1)} % against the paper's 61.5 %` : ''}) standing for the paper's ${s.paperUsersPerS} users/s`;
  const host = m ? `${m.cpuModel}, ${m.cores} cores, ${m.memGiB} GiB, kernel ${m.kernel}${m.speed ? `, speed probe scrypt 2^14 ${m.speed.scryptN14Ms} ms / spawn ${m.speed.spawnMs} ms` : ''}` : 'no run recorded the machine';
  const span = s.endedAt ? ` (${Math.round((Date.parse(s.endedAt) - Date.parse(s.startedAt)) / 60000)} min)` : '';
  const command = `npm run bench -- reproduce 000${s.testbed === 'scaled' ? ' --testbed scaled' : ''}`;
  return `Testbed ${s.testbed}; ${load}; ${s.runsAsked} runs a configuration asked, interleaved in seeded random rounds; our figures are the hold stage's mean over VALID runs ± the 95 % half-width. Runs ${s.startedAt.slice(0, 16)}–${s.endedAt?.slice(0, 16) ?? 'unfinished'}${span}, commit ${s.commit?.slice(0, 12) ?? 'unknown'}; ${host}. Made by \`${command}\`; record: ${s.record}.`;
}

export function scorecardBlocks(s: Scorecard): Block[] {
  const metricRows = (keys: ScoreMetric[]): string[][] =>
    s.rows.map((r) => [`${r.label} (${r.variant})`, `${r.valid}/${r.runs}`, ...keys.flatMap((k) => [paperText(r.paper[k], KIND[k]), oursText(r.ours[k], KIND[k])])]);
  const head = (keys: ScoreMetric[]): string[] => ['configuration (preset)', 'VALID/runs', ...keys.flatMap((k) => [`${LABEL[k]} paper`, `${LABEL[k]} ours`])];
  const availability: ScoreMetric[] = ['rac', 'fr', 'efr', 'spsFr', 'spsEfr'];
  const performance: ScoreMetric[] = ['lt800', 'b800_1200', 'ge1200', 'apdex', 'throughput'];
  const memory = s.rankings.find((r) => r.metric === 'memory')!;
  return [
    { kind: 'h1', text: "Reproducing paper 000's Tables I–III" },
    { kind: 'p', text: setupText(s) },
    { kind: 'h2', text: "Rankings: ours against the paper's (Spearman's ρ, 95 % Fisher-z interval, Bonett–Wright variance)" },
    { kind: 'table', head: ['metric', 'ρ [95 % CI] (configurations)', 'what it ranks'], rows: rankingRows(s) },
    { kind: 'h2', text: 'Availability per configuration (Tables I–II; — where the paper prints no figure)' },
    { kind: 'table', head: head(availability), rows: metricRows(availability) },
    { kind: 'h2', text: 'Performance per configuration' },
    { kind: 'table', head: head(performance), rows: metricRows(performance) },
    { kind: 'p', text: `Throughput is not comparable in absolute terms: the paper's is at ${s.paperUsersPerS} users/s on 24 threads, ours at ${s.peak ?? '?'} it/s on this testbed; its ranking is.` },
    { kind: 'h2', text: "Table III: memory ranking" },
    { kind: 'p', text: `${rhoText(memory)} over the configurations Table III lists that ran here.` },
    {
      kind: 'table',
      head: ['configuration', 'memory paper (% of 128 GB)', 'memory ours (share of this machine)', 'energy paper (Wh)', 'energy ours (Wh per run)'],
      rows: memory.pairs.map((p) => {
        const row = s.rows.find((r) => r.label === p.label)!;
        return [p.label, `${(100 * p.paper).toFixed(2)} %`, oursText(row.memoryShare, 'share'), String(PAPER_000_TABLE_III.find((t) => t.label === p.label)?.energyWh ?? '—'), oursText(row.energyWh, 'rate')];
      }),
    },
    ...(s.missing.length ? [{ kind: 'p', text: `Configurations of the tables no preset stands for: ${s.missing.join(', ')}.` } as Block] : []),
    ...(s.notes.length ? [{ kind: 'h2', text: 'Notes' } as Block, { kind: 'list', items: s.notes } as Block] : []),
  ];
}

/** Our rank beside the paper's per configuration and a metric's values side by side: the data of the page's figures. */
export function chartData(s: Scorecard): { id: string; title: string; labels: string[]; paper: number[]; ours: number[] }[] {
  return s.rankings
    .filter((r) => r.pairs.length)
    .map((r) => ({ id: `fig-${r.metric}`, title: `${LABEL[r.metric]}: ${rhoText(r)}`, labels: r.pairs.map((p) => p.label), paper: r.pairs.map((p) => p.paper), ours: r.pairs.map((p) => p.ours) }));
}

export function scorecardMarkdown(s: Scorecard): string {
  return toMarkdown(scorecardBlocks(s));
}

/** The same blocks as HTML, with the figures (paper left axis, ours right axis) two to a row. */
export function scorecardHtml(s: Scorecard): string {
  const title = "Reproducing paper 000's Tables I–III";
  const charts = chartData(s);
  const grid = `<h2>Figures: the paper's value (left axis) and ours (right axis) per configuration</h2>
<div style="display:grid;grid-template-columns:1fr 1fr;gap:1em">${charts.map((c) => `<div><h3>${escapeHtml(c.title)}</h3><canvas id="${c.id}" height="220"></canvas></div>`).join('')}</div>
<script>${chartJs()}</script>
<script>
for (const c of ${JSON.stringify(charts).replace(/</g, '\\u003c')}) {
  new Chart(document.getElementById(c.id), { type: 'bar', data: { labels: c.labels, datasets: [{ label: 'paper 000', data: c.paper, yAxisID: 'paper' }, { label: 'ours', data: c.ours, yAxisID: 'ours' }] },
    options: { animation: false, scales: { paper: { position: 'left', beginAtZero: true, title: { display: true, text: 'paper' } }, ours: { position: 'right', beginAtZero: true, title: { display: true, text: 'ours' }, grid: { drawOnChartArea: false } } } } });
}
</script>`;
  return toHtml(title, scorecardBlocks(s)).replace('\n</body></html>\n', `\n${grid}\n</body></html>\n`);
}
