// The kernel's CPU list format ("0-2,4"), as cpuset.cpus and /proc/<pid>/status Cpus_allowed_list write it.

/** "0-2,4" → [0, 1, 2, 4] (sorted, unique); "" → []. Throws on anything else. */
export function parseCpuList(text: string): number[] {
  const out = new Set<number>();
  for (const part of text.trim().split(',').filter((p) => p.trim() !== '')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!m) throw new Error(`not a CPU list: "${text}" (expected e.g. 0-1,3)`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new Error(`not a CPU list: "${text}" (range ${part} runs backwards)`);
    for (let c = from; c <= to; c++) out.add(c);
  }
  return [...out].sort((a, b) => a - b);
}

/** [0, 1, 2, 4] → "0-2,4". */
export function formatCpuList(cpus: readonly number[]): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Cpus_allowed_list of /proc/<pid>/status text; null when absent. */
export function parseCpusAllowed(status: string): number[] | null {
  const m = /^Cpus_allowed_list:\s*(\S*)\s*$/m.exec(status);
  return m ? parseCpuList(m[1]) : null;
}
