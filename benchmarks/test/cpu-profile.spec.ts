import { componentOf, profilesMarkdown, summarizeProfiles, type CpuProfile } from '../src/profiling/cpu-profile';

const REPO = 'file:///work/main/dist';
/** A profile of 4 functions: samples every 1 ms (timeDeltas in µs). */
const profile: CpuProfile = {
  startTime: 0,
  endTime: 10_000,
  nodes: [
    { id: 1, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
    { id: 2, callFrame: { functionName: 'handle', url: `file:///work/main/node_modules/express/lib/router/layer.js`, lineNumber: 85 } },
    { id: 3, callFrame: { functionName: 'parseDataRowMessage', url: `file:///work/main/node_modules/pg-protocol/dist/parser.js`, lineNumber: 300 } },
    { id: 4, callFrame: { functionName: 'validateArchive', url: `${REPO}/libs/grading/src/validate-archive.js`, lineNumber: 40 } },
    { id: 5, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
  ],
  samples: [1, 1, 1, 1, 2, 2, 3, 4, 4, 4, 5],
  timeDeltas: Array(11).fill(1000),
};

describe('V8 CPU profiles by component', () => {
  it('classifies a function by where it lives', () => {
    expect(componentOf('file:///x/node_modules/@opentelemetry/sdk-trace-base/build/x.js', 'f')).toBe('tracing');
    expect(componentOf('file:///x/node_modules/@nestjs/core/router/x.js', 'f')).toBe('framework');
    expect(componentOf('file:///x/node_modules/jsonwebtoken/verify.js', 'f')).toBe('auth');
    expect(componentOf('file:///x/dist/libs/api/src/production/x.js', 'f')).toBe('app');
    expect(componentOf('node:internal/streams/readable', 'f')).toBe('node');
    expect(componentOf('', '(program)')).toBe('runtime');
    expect(componentOf('node:internal/modules/cjs/loader', 'wrapSafe')).toBe('startup');
  });

  it('sums self time per component and per function, idle apart', () => {
    const s = summarizeProfiles('sg-monolith-0', [profile]);
    expect(s.byComponent).toEqual({ idle: 4, framework: 2, database: 1, grading: 3, gc: 1 });
    expect(s.busyMs).toBe(7);
    expect(s.spanMs).toBe(10);
    expect(s.top.map((t) => [t.function, t.component, t.ms, t.where])).toEqual([
      ['validateArchive', 'grading', 3, 'dist/libs/grading/src/validate-archive.js:41'],
      ['handle', 'framework', 2, 'node_modules/express/lib/router/layer.js:86'],
      ['parseDataRowMessage', 'database', 1, 'node_modules/pg-protocol/dist/parser.js:301'],
      ['(garbage collector)', 'gc', 1, ''],
    ]);
  });

  it("charges Node's own functions to their nearest caller outside Node, and module loading to start-up", () => {
    // root → cors middleware → Node's socket write; root → jsonwebtoken sign → createPrivateKey; root → require() → a library's top level.
    const tree: CpuProfile = {
      startTime: 0,
      endTime: 10_000,
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4, 6, 9] },
        { id: 2, callFrame: { functionName: 'cors', url: 'file:///w/node_modules/cors/lib/index.js', lineNumber: 157 }, children: [3] },
        { id: 3, callFrame: { functionName: 'writeLatin1String', url: '', lineNumber: -1 } },
        { id: 4, callFrame: { functionName: 'sign', url: 'file:///w/node_modules/jsonwebtoken/sign.js', lineNumber: 110 }, children: [5] },
        { id: 5, callFrame: { functionName: 'createPrivateKey', url: 'node:internal/crypto/keys', lineNumber: 622 } },
        { id: 6, callFrame: { functionName: 'require', url: 'node:internal/modules/cjs/helpers', lineNumber: 10 }, children: [7] },
        { id: 7, callFrame: { functionName: '', url: 'file:///w/node_modules/bullmq/dist/index.js', lineNumber: 0 }, children: [8] },
        { id: 8, callFrame: { functionName: 'readFileUtf8', url: '', lineNumber: -1 } },
        { id: 9, callFrame: { functionName: 'processTicksAndRejections', url: 'node:internal/process/task_queues', lineNumber: 66 } },
      ],
      samples: [3, 3, 5, 5, 5, 8, 9],
      timeDeltas: Array(7).fill(1000),
    };
    const s = summarizeProfiles('sg-leftover-0', [tree]);
    expect(s.byComponent).toEqual({ framework: 2, auth: 3, startup: 1, node: 1 });
    expect(s.top.map((t) => [t.function, t.component, t.via, t.ms])).toEqual([
      ['createPrivateKey', 'auth', 'sign node_modules/jsonwebtoken/sign.js:111', 3],
      ['writeLatin1String', 'framework', 'cors node_modules/cors/lib/index.js:158', 2],
      ['processTicksAndRejections', 'node', '', 1],
    ]);
  });

  it('adds the profiles of a restarted process together', () => {
    expect(summarizeProfiles('p', [profile, profile]).busyMs).toBe(14);
  });

  it('writes the component table with per-iteration figures, and each process top functions', () => {
    const md = profilesMarkdown([summarizeProfiles('sg-monolith-0', [profile])], 7);
    expect(md).toContain('| sg-monolith-0 | 7.0 (1.0) | 2.0 (0.3) | 0.0 (0.0) | 1.0 (0.1) | 0.0 (0.0) | 3.0 (0.4) |');
    expect(md).toContain('| validateArchive | dist/libs/grading/src/validate-archive.js:41 |  | grading | 3.0 | 42.9 % |');
  });
});
