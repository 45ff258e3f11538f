/**
 * The client address that keys the per-client rate limits. X-Forwarded-For is
 * believed only from the variant's own proxies (AuthConfig.trustedProxies: its HAProxy or gateway
 * addresses), not from every private range: a student on a campus network must not be able to
 * name itself a fresh client by writing the header. Independent of express's `trust proxy`.
 */
import { BlockList, isIP } from 'node:net';

/** Names for ranges, as express's `trust proxy` spells them. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** The proxies whose X-Forwarded-For is believed: addresses, CIDR ranges or the names above. */
export class TrustedProxies {
  private readonly list = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) this.add(entry.trim());
  }

  trusts(address: string): boolean {
    const type = isIP(address);
    return type !== 0 && this.list.check(address, type === 4 ? 'ipv4' : 'ipv6');
  }

  private add(entry: string): void {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [network, prefix, type] of named) this.list.addSubnet(network, prefix, type);
      return;
    }
    const [address, prefix] = entry.split('/');
    const type = isIP(address ?? '');
    if (type === 0) throw new Error(`trusted proxy "${entry}": expected an IP address, a CIDR range, or one of ${Object.keys(NAMED_RANGES).join(', ')}`);
    const family = type === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) this.list.addAddress(address!, family);
    else this.list.addSubnet(address!, Number(prefix), family);
  }
}

export interface ClientRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string };
}

/**
 * Walks back from the peer through X-Forwarded-For while the hop is one of our proxies: the
 * first address not vouched for by a proxy is the client. Entries left of it are whatever the
 * client wrote, never read.
 */
export function clientAddressOf(req: ClientRequest, proxies: TrustedProxies): string {
  let client = plain(req.socket.remoteAddress ?? '');
  const hops = forwardedFor(req.headers['x-forwarded-for']);
  while (proxies.trusts(client) && hops.length > 0) {
    const next = plain(hops.pop()!);
    if (isIP(next) === 0) break; // a proxy would not write this: keep the proxy's own address
    client = next;
  }
  return client || 'unknown';
}

function forwardedFor(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
}

/** An IPv4 address as itself, not as ::ffff:a.b.c.d (a dual-stack socket's spelling). */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}
