// The request breakdowns (SPS unless told otherwise) of a fault run's windows, from Jaeger, by the traces/ attribution itself
// (critical path, client samples matched from the run folder's k6 log).
import { loadConnections } from '@shellgrade/variant';
import type { Trace } from '@shellgrade/trace-model';
import { breakdownTraces, JaegerClient, readClientSamples, ROOT_SERVICES, type RequestBreakdown, type RootFinder } from '@shellgrade/traces';

export interface MsWindow {
  fromMs: number;
  toMs: number;
}

/** One list of breakdowns per window, in the order given: the SPS requests, or those `findRoot` picks. */
export async function windowBreakdowns(runDir: string, windows: MsWindow[], findRoot?: RootFinder, jaegerUrl = loadConnections().JAEGER_QUERY_URL): Promise<RequestBreakdown[][]> {
  const jaeger = new JaegerClient(jaegerUrl);
  const known = await jaeger.services();
  const services = ROOT_SERVICES.filter((s) => known.includes(s));
  if (services.length === 0) throw new Error(`Jaeger at ${jaegerUrl} has no trace of ${ROOT_SERVICES.join(' or ')}`);
  const samples = await readClientSamples(runDir);
  const out: RequestBreakdown[][] = [];
  for (const w of windows) {
    const traces = new Map<string, Trace>();
    for (const service of services) for (const t of await jaeger.search({ service, fromMs: w.fromMs, toMs: w.toMs })) traces.set(t.traceId, t);
    // A trace found by its start is kept only if its root began inside the window.
    out.push(breakdownTraces([...traces.values()], samples, undefined, findRoot).filter((r) => r.startUs / 1000 >= w.fromMs && r.startUs / 1000 < w.toMs));
  }
  return out;
}
