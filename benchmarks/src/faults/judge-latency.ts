// The attribution verdict of one latency-fault run from Jaeger: the breakdowns of its steady and
// fault windows (the requests HOP_REQUESTS names), kept beside the verdict, then judged. Used by
// the run itself and by `bench faults-reattribute`, which judges recorded runs again (while Jaeger
// still holds their traces) when the analysis has improved.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadVariant, type Hop } from '@shellgrade/variant';
import { attributeHopFault, hopRoot, type AttributionVerdict } from './attribution';
import { windowBreakdowns, type MsWindow } from './window-traces';

export async function judgeLatencyRun(dir: string, hop: Hop, variant: string, steady: MsWindow, fault: MsWindow): Promise<{ attribution: AttributionVerdict | null; attributionError?: string }> {
  try {
    const [steadyRequests, faultRequests] = await windowBreakdowns(dir, [steady, fault], hopRoot(hop));
    // The per-request breakdowns the verdict rests on, beside it (a test fixture is cut from them).
    writeFileSync(join(dir, 'attribution-windows.json'), JSON.stringify({ hop, steady: steadyRequests, during: faultRequests }));
    return { attribution: attributeHopFault(hop, steadyRequests, faultRequests, loadVariant(variant).dispatch) };
  } catch (err) {
    return { attribution: null, attributionError: err instanceof Error ? err.message : String(err) };
  }
}
