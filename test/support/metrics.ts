/** Prometheus /metrics of one process as the e2e tests read it: straight from the process, as Prometheus would (loopback is internal: ops endpoints answer). */

/** The value of one series (name with its labels, e.g. `x_total{result="hit"}`); null when the process does not expose it. */
export async function metricValue(baseUrl: string, series: string): Promise<number | null> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}
