/**
 * The Edge contract (proto/shellgrade/edge/v1/edge.proto) loaded once for both sides: the
 * gateway's client and the services' server read the same file, so they cannot drift.
 */
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

export interface EdgeHeader {
  name: string;
  value: string;
}

export interface HttpCall {
  method: string;
  path: string;
  headers: EdgeHeader[];
  body: Buffer;
}

export interface HttpReply {
  status: number;
  headers: EdgeHeader[];
  body: Buffer;
}

/** Beside the compiled code too: scripts/build.sh copies proto/ next to dist's src/. */
export const EDGE_PROTO = join(__dirname, '..', 'proto', 'shellgrade', 'edge', 'v1', 'edge.proto');

/** Room for the headers and framing on top of the largest body a service accepts. */
const ENVELOPE_HEADROOM_BYTES = 64 * 1024;

/** The gRPC message limit (both directions) for a variant whose bodies are at most maxBodyBytes. */
export function edgeMessageLimit(maxBodyBytes: number): number {
  return maxBodyBytes + ENVELOPE_HEADROOM_BYTES;
}

interface EdgePackage {
  shellgrade: { edge: { v1: { Edge: grpc.ServiceClientConstructor } } };
}

let loaded: grpc.ServiceClientConstructor | undefined;

/** The Edge service's client constructor; its `.service` is the definition a server implements. */
export function edgeService(): grpc.ServiceClientConstructor {
  if (!loaded) {
    const definition = loadSync(EDGE_PROTO, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true });
    loaded = (grpc.loadPackageDefinition(definition) as unknown as EdgePackage).shellgrade.edge.v1.Edge;
  }
  return loaded;
}
