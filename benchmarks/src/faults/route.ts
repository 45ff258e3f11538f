// A hop fault's setting: the variant brought up with that one hop through a toxiproxy listener
// (launcher --hop-via) and tracing on (the attribution check reads the run's traces), the proxy
// forwarding to the real upstream. Both the route and the proxy are undone like a fault: journaled,
// and performed at the end, on a signal or on the next start after a crash.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOPS, hopRefusal, hopUpstream, loadConnections, loadVariant, loopbackUpstreams, parseHopRoute, variantServers, type Hop } from '@shellgrade/variant';
import { stringify } from 'yaml';
import { variantUp } from '../stack';
import { FaultNotApplicable } from './catalog';
import { guardUndo } from './guard';
import type { UndoJournal } from './journal';
import { createProxy, HOP_LISTEN, startToxiproxy, TOXIPROXY_API, type RoutedHop } from './toxiproxy';

export type { RoutedHop };

export function asHop(name: string): Hop {
  if (!(HOPS as readonly string[]).includes(name)) throw new Error(`unknown hop "${name}" (hops: ${HOPS.join(', ')})`);
  return name as Hop;
}

/** Why `hop` of the variant cannot be routed (FaultNotApplicable), before anything starts. */
export function checkHop(variant: string, hop: Hop): void {
  const spec = loadVariant(variant);
  const refusal = hopRefusal(spec, hop);
  if (refusal) throw new FaultNotApplicable(refusal);
  if (hop !== 'exercise' && hop !== 'leftover' && !variantServers(spec).includes(hop)) throw new FaultNotApplicable(`${variant} does not use ${hop}`);
}

/** Routes `hop` of `variant` through the proxy; `unroute` brings the preset back as it is and stops a proxy it started. */
export async function routeHop(variant: string, hop: Hop, dir: string, journal: UndoJournal): Promise<{ routed: RoutedHop; unroute(): Promise<void> }> {
  checkHop(variant, hop);
  const spec = loadVariant(variant);
  const upstream = hopUpstream(hop, loopbackUpstreams(spec), loadConnections());
  const proxy = `sg-${hop}`;
  const { pid } = await startToxiproxy(join(dir, 'toxiproxy.log'));
  const stopProxy = pid === null ? null : guardUndo(journal, `route:${hop}`, `toxiproxy (pid ${pid})`, { kind: 'kill', pid });
  await createProxy(proxy, HOP_LISTEN, upstream);
  const specFile = join(dir, `${variant}-${hop}-routed.yaml`);
  writeFileSync(specFile, stringify({ ...spec, tracing: { ...spec.tracing, enabled: true } }));
  const restore = guardUndo(journal, `route:${hop}`, `${variant} (${hop} via ${HOP_LISTEN})`, { kind: 'variant-up', target: variant });
  await variantUp(specFile, { hop: parseHopRoute(`${hop}=${HOP_LISTEN}`) });
  return {
    routed: { hop, api: TOXIPROXY_API, proxy, listen: HOP_LISTEN, upstream },
    unroute: async () => {
      await restore.perform();
      await stopProxy?.perform();
    },
  };
}
