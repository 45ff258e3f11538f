import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of the real Redis that can make it look slow (stall: requests are held,
 * not forwarded, until resume) or down (every connection cut, the port refuses connections until
 * up). Held requests are forwarded on resume, so the client's reply order stays consistent.
 */
export class ControllableProxy {
  private server: Server | null = null;
  private readonly connections = new Set<Socket>();
  private readonly held: { upstream: Socket; data: Buffer }[] = [];
  private stalled = false;
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<ControllableProxy> {
    const proxy = new ControllableProxy(target);
    await proxy.up();
    return proxy;
  }

  /** Listens (again) on the same port as before, or on a free one the first time. */
  async up(): Promise<void> {
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Cuts every connection and stops listening: connections are refused until up(). */
  async down(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const { upstream, data } of this.held.splice(0)) upstream.write(data);
  }

  async close(): Promise<void> {
    this.resume();
    await this.down();
  }

  private relay(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.connections.add(client).add(upstream);
    client.on('data', (data) => (this.stalled ? this.held.push({ upstream, data }) : upstream.write(data)));
    upstream.on('data', (data) => client.write(data));
    const cut = () => {
      client.destroy();
      upstream.destroy();
      this.connections.delete(client);
      this.connections.delete(upstream);
    };
    client.on('close', cut).on('error', cut);
    upstream.on('close', cut).on('error', cut);
  }
}

/** A loopback port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
