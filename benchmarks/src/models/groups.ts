// The harness's process groups (resources.cpuSByGroup) as the model's stations.

/** The station a process group is part of: its role for variant processes, null when not modelled (jaeger, minio). */
export function stationOfGroup(group: string): string | null {
  const role = /^sg-(monolith|gateway|leftover|exercise)-\d+$/.exec(group)?.[1];
  if (role) return role;
  if (group === 'sg-haproxy') return 'haproxy';
  if (group === 'postgres') return 'postgres';
  if (group === 'rabbitmq' || group === 'redis') return 'broker';
  return null;
}
