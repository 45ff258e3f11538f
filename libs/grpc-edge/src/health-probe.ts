/** grpc.health.v1 Check against a service's gRPC edge: the launcher's readiness probe for transport grpc. */
import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

const HealthClient = grpc.makeGenericClientConstructor(healthService, 'Health');

interface HealthCheckStub extends grpc.Client {
  check(request: { service: string }, options: grpc.CallOptions, callback: grpc.requestCallback<{ status: string | number }>): void;
}

/** True when the server at address answers SERVING for service ('' = the whole server) within timeoutMs. */
export function grpcServing(address: string, timeoutMs = 2_000, service = ''): Promise<boolean> {
  const client = new HealthClient(address, grpc.credentials.createInsecure()) as unknown as HealthCheckStub;
  return new Promise<boolean>((resolve) => {
    client.check({ service }, { deadline: new Date(Date.now() + timeoutMs) }, (error, reply) => {
      client.close();
      resolve(!error && (reply?.status === 'SERVING' || reply?.status === 1));
    });
  });
}
