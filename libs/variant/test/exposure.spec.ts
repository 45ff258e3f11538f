import { exposureRisks, isLoopbackAddress, loadVariant, refuseUnsafeExposure, validateVariant } from '../src';

const safe = validateVariant({ name: 'safe', description: 'sandboxed, async', topology: 'monolith', dispatch: 'inline', replicas: { monolith: 1 } });
const unsandboxed = validateVariant({ ...safe, name: 'unsandboxed', grader: { isolation: 'none' } });

describe('exposure of unsafe grader settings', () => {
  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.3.2.1', '::1', 'localhost'].map(isLoopbackAddress)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.4', '10.0.0.1'].map(isLoopbackAddress)).toEqual([false, false, false, false]);
  });

  it('names the risks of the paper settings (blocking exec, no isolation)', () => {
    expect(exposureRisks(loadVariant('naked-mon'))).toEqual([expect.stringMatching(/exec blocking/)]);
    expect(exposureRisks(unsandboxed)).toEqual([expect.stringMatching(/isolation none/)]);
    expect(exposureRisks(safe)).toEqual([]);
  });

  it('refuses them beyond loopback unless forced; loopback and safe specs pass', () => {
    expect(() => refuseUnsafeExposure(loadVariant('naked-mon'), '0.0.0.0')).toThrow(/refusing to expose naked-mon on 0\.0\.0\.0[\s\S]*--force/);
    expect(() => refuseUnsafeExposure(unsandboxed, '192.168.1.4', { forceFlag: '--force-exposed' })).toThrow(/isolation none[\s\S]*--force-exposed/);
    expect(() => refuseUnsafeExposure(loadVariant('naked-mon'), '127.0.0.1')).not.toThrow();
    expect(() => refuseUnsafeExposure(loadVariant('naked-mon'), '0.0.0.0', { force: true })).not.toThrow();
    expect(() => refuseUnsafeExposure(safe, '0.0.0.0')).not.toThrow();
  });
});
