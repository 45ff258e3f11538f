import type { TrendPoint } from '@shellgrade/console-contract';
import { formatFigure, pointLabel, runHref, trendQuery, validityText } from './trend';

const point = (p: Partial<TrendPoint> = {}): TrendPoint => ({
  runId: '20261127T011951Z-naked-mon-small',
  startedAt: '2026-11-27T01:20:07.293Z',
  profile: 'small',
  speed: { scryptN14Ms: 65.16, spawnMs: 4.17 },
  runs: 1,
  validRuns: 0,
  valid: false,
  invalidReasons: ['run 1: foreign CPU load'],
  figuresFrom: 'all',
  throughput: 90,
  spsP50: 12039.1,
  spsP95: 15127.7,
  spsP99: 15336.2,
  koShare: 0,
  cpuSPerIteration: 0.0452,
  hostWarning: null,
  ...p,
});

describe('trend formats', () => {
  it('says a figure in its unit and where the figures come from', () => {
    expect(formatFigure(point(), 'spsP95', { metric: 'p95', label: '', unit: 'ms', better: 'lower' })).toBe('15127.7 ms');
    expect(formatFigure(point(), 'cpuSPerIteration', { metric: 'cpuSPerIteration', label: '', unit: 's', better: 'lower' })).toBe('45.2 ms');
    expect(formatFigure(point(), 'koShare', { metric: 'koShare', label: '', unit: '', better: 'lower' })).toBe('0.00 %');
    expect(validityText(point())).toBe('INVALID (0/1, figures from INVALID runs)');
    expect(validityText(point({ valid: true, validRuns: 1, figuresFrom: 'valid' }))).toBe('VALID (1/1)');
  });

  it('links a run to its folder and labels it by its start', () => {
    expect(runHref('20261127T011951Z-naked-mon-small')).toBe('/ops/runs/20261127T011951Z-naked-mon-small/');
    expect(pointLabel(point())).toBe('11-27 01:20');
    expect(trendQuery('naked-mon', 10, '')).toBe('preset=naked-mon');
    expect(trendQuery('naked-mon', 3, 'small')).toBe('preset=naked-mon&last=3&profile=small');
  });
});
