import { paper001Html, paper001Tables, paperFindings, relativeChange, type Paper001Cell } from '../src/sweep/paper001';

const cell = (architecture: 'monolith' | 'msa', cache: boolean, k: 's1' | 's2', meanThroughput: number, valid = true): Paper001Cell => ({
  variant: `${architecture}-${cache}`,
  architecture,
  cache,
  class: k,
  msPerThread: 10,
  meanThroughput,
  valid,
  runId: 'r',
});

describe('paper 001 tables and findings', () => {
  it('reproduces both findings when S1 barely moves with the cache and MSA S2 more than +50 %', () => {
    const cells = [cell('monolith', false, 's1', 100), cell('monolith', true, 's1', 95), cell('msa', false, 's1', 80), cell('msa', true, 's1', 84), cell('msa', false, 's2', 10), cell('msa', true, 's2', 24)];
    const [a, b] = paperFindings(cells);
    expect(a).toContain('REPRODUCED — monolith -5.0 %, MSA +5.0 %');
    expect(b).toContain('REPRODUCED — MSA +140.0 %');
  });

  it('does not reproduce (a) when the cache moves S1 by more than 10 %, and says when a sweep is missing or invalid', () => {
    const cells = [cell('monolith', false, 's1', 100), cell('monolith', true, 's1', 150), cell('msa', false, 's1', 80), cell('msa', true, 's1', 80), cell('msa', false, 's2', 10), cell('msa', true, 's2', 12, false)];
    const [a, b] = paperFindings(cells);
    expect(a).toContain('NOT reproduced');
    expect(b).toContain('not measured');
    expect(relativeChange(0, 5)).toBeNull();
  });

  it('prints Tables 3 and 4 with the paper’s figures beside ours', () => {
    const md = paper001Tables([cell('msa', false, 's2', 5.5)]);
    expect(md).toContain('| without cache | S2 | not run | 5.5 | 19.0 | 5.2 |');
    expect(md).toContain('| with cache | S2 | not run | not run | – | 12.4 |');
    expect(md).toContain('| without cache | S2 | not run | 10.0 | 44.6 | 148.6 |');
  });

  it('draws one throughput and one latency chart per request class', () => {
    const html = paper001Html('t', '| x |', []);
    expect(html.match(/<canvas id="s[12]-[xr]"/g)).toHaveLength(4);
  });
});
