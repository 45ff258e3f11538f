/**
 * The services' side of spec.transport: with grpc, a gRPC edge (libs/grpc-edge) beside the
 * HTTP edge, on the HTTP port + GRPC_PORT_OFFSET, replaying each call against that HTTP edge.
 * It closes with the HTTP server (Nest's shutdown hooks).
 */
import { Logger, type INestApplication } from '@nestjs/common';
import { startEdgeServer } from '@shellgrade/grpc-edge';
import { bodyLimitFor } from '@shellgrade/http';
import { grpcPort, type ServiceConfig } from '@shellgrade/variant';

export async function serveTransport(app: INestApplication, cfg: ServiceConfig, name: string): Promise<void> {
  if (cfg.spec.transport !== 'grpc') return;
  const edge = await startEdgeServer({
    host: cfg.host,
    http: { host: cfg.host === '0.0.0.0' ? '127.0.0.1' : cfg.host, port: cfg.port },
    port: grpcPort(cfg.port),
    maxBodyBytes: bodyLimitFor(cfg.spec.http.maxArchiveBytes),
  });
  app.getHttpServer().once('close', () => void edge.close());
  new Logger(name).log(`gRPC edge on ${edge.address} (grpc.health.v1 SERVING)`);
}
