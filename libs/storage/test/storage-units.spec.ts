import { ARCHIVE_STORE } from '@shellgrade/domain';
import { DomainError } from '@shellgrade/domain';
import { S3Error } from 'minio';
import { productionIdOfKey, productionObjectKey } from '../src/object-keys';
import { objectStoreUnavailable, OBJECT_STORE_RETRY_AFTER_S } from '../src/object-store-errors';
import { postgresArchiveStoreProvider, tracedArchiveStoreProviders } from '../src/storage.providers';

describe('object keys', () => {
  it('derives the key from the production id and back', () => {
    expect(productionObjectKey(42)).toBe('productions/42.tar.gz');
    expect(productionIdOfKey('productions/42.tar.gz')).toBe(42);
  });

  it.each(['productions/42.tar', 'productions/x.tar.gz', 'other/42.tar.gz', 'productions/42.tar.gz/extra', 'productions/99999999999999999999.tar.gz'])(
    'does not claim the foreign key %s',
    (key) => expect(productionIdOfKey(key)).toBeNull(),
  );
});

describe('objectStoreUnavailable', () => {
  it('turns a refused connection into a 503-kind error with Retry-After', () => {
    const err = objectStoreUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:59000'), { code: 'ECONNREFUSED' }), 'http://127.0.0.1:59000', 'put productions/1.tar.gz', 'the archive was not stored, retry later');
    expect(err).toBeInstanceOf(DomainError);
    expect(err.kind).toBe('unavailable');
    expect(err.retryAfterSeconds).toBe(OBJECT_STORE_RETRY_AFTER_S);
    expect(err.message).toBe(
      'object store unreachable (put productions/1.tar.gz at http://127.0.0.1:59000: connect ECONNREFUSED 127.0.0.1:59000); the archive was not stored, retry later',
    );
    expect(err.details).toEqual({ store: 'minio', operation: 'put productions/1.tar.gz', code: 'ECONNREFUSED' });
  });

  it('names a server-side refusal by its S3 code', () => {
    const s3 = Object.assign(new S3Error('Access Denied.'), { code: 'AccessDenied' });
    const err = objectStoreUnavailable(s3, 'http://x', 'get k');
    expect(err.message).toMatch(/^object store refused the request \(get k at http:\/\/x: Access Denied\.\); retry later$/);
    expect(err.details.code).toBe('AccessDenied');
  });

  it('passes a DomainError through unchanged', () => {
    const original = new DomainError('not-found', 'gone');
    expect(objectStoreUnavailable(original, 'http://x', 'get k')).toBe(original);
  });
});

describe('tracedArchiveStoreProviders', () => {
  it('re-binds the adapter privately and exposes the traced wrapper as ARCHIVE_STORE', () => {
    const providers = tracedArchiveStoreProviders(postgresArchiveStoreProvider, 'postgres');
    expect(providers).toHaveLength(2);
    expect(providers.map((p) => (p as { provide: unknown }).provide)).toContain(ARCHIVE_STORE);
    expect((providers[0] as { provide: unknown }).provide).not.toBe(ARCHIVE_STORE);
  });
});
