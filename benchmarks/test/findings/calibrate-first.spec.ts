// The capacity a findings run calibrates first is that calibration's own answer, whatever testbed
// it ran on (a fake calibration: nothing is run).
import type { CalibrationInput, WrittenCalibration } from '../../src/calibrate';
import { calibrateFirst } from '../../src/findings/calibrate-first';

const made = (sustainableRate: number | null, testbed: 'scaled' | 'unscaled'): WrittenCalibration =>
  ({
    variant: 'naked-mon',
    rampS: 10,
    holdS: 30,
    baselineGradingsPerS: null,
    steps: [
      { peak: 0.4, valid: true, spsEfr: 0, spsP95Ms: 900 },
      { peak: 0.9, valid: true, spsEfr: 0, spsP95Ms: 2600 },
    ],
    recommendedPeak: null,
    sustainableRate,
    firstFailedRate: 0.9,
    placement: { state: 'on', clientCpus: [1], sutCpus: [0] },
    ...(testbed === 'scaled' ? { testbed: { testbed: 'scaled', s: 1 / 9 } } : {}),
    file: '/results/20261206T150810Z-naked-mon-calibration.json',
  }) as unknown as WrittenCalibration;

describe('calibrateFirst', () => {
  it("takes the rate of the calibration it made, also the scale model's (which no later reader takes for the machine's)", async () => {
    const asked: CalibrationInput[] = [];
    const capacity = await calibrateFirst({ testbed: { testbed: 'scaled' } }, [0.4, 0.9, 1.3, 1.8], async (input) => (asked.push(input), made(0.6, 'scaled')));
    expect(capacity).toEqual({ rate: 0.6, source: '20261206T150810Z-naked-mon-calibration.json' });
    expect(asked).toEqual([expect.objectContaining({ variant: 'naked-mon', peaks: [0.4, 0.9, 1.3, 1.8], placement: { testbed: { testbed: 'scaled' } } })]);
  });

  it('stops the run when even the lowest rate failed, naming it and the file', async () => {
    await expect(calibrateFirst(undefined, [0.4, 0.9], async () => made(null, 'unscaled'))).rejects.toThrow(/no rate within the SLO .* down to 0.4 it\/s \(20261206T150810Z-naked-mon-calibration\.json\)/);
  });
});
