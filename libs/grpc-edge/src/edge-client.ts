/**
 * The gateway's side of the Edge contract: one channel per upstream service, round-robin over
 * its replicas (grpc-js balances a multi-address target itself, no HAProxy on this hop), and a
 * deadline on every call.
 */
import * as grpc from '@grpc/grpc-js';
import { edgeMessageLimit, edgeService, type HttpCall, type HttpReply } from './edge-contract';

export interface EdgeClientOptions {
  /** The variant's http.maxBodyBytes: the message limit is derived from it (edgeMessageLimit). */
  maxBodyBytes: number;
}

export interface PendingCall {
  reply: Promise<HttpReply>;
  /** Abandons the call (the client hung up): the service sees CANCELLED. */
  cancel(): void;
}

type EdgeStub = grpc.Client & {
  Call(request: HttpCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<HttpReply>): grpc.ClientUnaryCall;
};

export class EdgeClient {
  private readonly stub: EdgeStub;

  /** target: grpc-js syntax, e.g. `127.0.0.1:4300` or `ipv4:127.0.0.1:4300,127.0.0.1:4301`. */
  constructor(
    readonly target: string,
    options: EdgeClientOptions,
  ) {
    const limit = edgeMessageLimit(options.maxBodyBytes);
    const Edge = edgeService();
    this.stub = new Edge(target, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': limit,
      'grpc.max_send_message_length': limit,
      'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    }) as unknown as EdgeStub;
  }

  /** Sends one HttpCall; rejects with the grpc-js ServiceError (code, details) on failure. */
  call(request: HttpCall, deadline: Date): PendingCall {
    let pending: grpc.ClientUnaryCall | undefined;
    const reply = new Promise<HttpReply>((resolve, reject) => {
      pending = this.stub.Call(request, new grpc.Metadata(), { deadline }, (error, value) =>
        error || !value ? reject(error ?? new Error('empty reply')) : resolve(value),
      );
    });
    return { reply, cancel: () => pending?.cancel() };
  }

  close(): void {
    this.stub.close();
  }
}
