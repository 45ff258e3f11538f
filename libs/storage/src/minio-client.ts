import * as http from 'node:http';
import * as https from 'node:https';
import { Client } from 'minio';

/** Where the object store is and how long a request may take (MINIO_* runtime config). */
export interface MinioSettings {
  /** e.g. http://127.0.0.1:59000 */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /**
   * Socket idle limit per request. Without it a hung server keeps an SPS request waiting for
   * the OS TCP timeout (minutes); with it the store answers 'unavailable' quickly.
   */
  requestTimeoutMs?: number;
}

export const DEFAULT_MINIO_TIMEOUT_MS = 2_000;

/**
 * The official MinIO client, with: a fixed region (no GetBucketLocation round trip before
 * the first request), a keep-alive agent, no client-side retries (the caller answers 503
 * with Retry-After instead), and a transport that aborts a request whose socket stays idle
 * longer than requestTimeoutMs (minio-js has no request timeout of its own).
 */
export function createMinioClient(settings: MinioSettings): Client {
  const url = new URL(settings.endpoint);
  const useSSL = url.protocol === 'https:';
  const lib = useSSL ? https : http;
  const timeout = settings.requestTimeoutMs ?? DEFAULT_MINIO_TIMEOUT_MS;
  const transport = {
    request: ((options: http.RequestOptions, callback?: (res: http.IncomingMessage) => void) => {
      const req = lib.request({ ...options, timeout }, callback);
      req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeout} ms`), { code: 'ETIMEDOUT' })));
      return req;
    }) as typeof http.request,
  };
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: 'us-east-1',
    transport,
    transportAgent: new lib.Agent({ keepAlive: true, maxSockets: 64 }),
    retryOptions: { disableRetry: true },
  });
}
