import { DomainError } from '@shellgrade/domain';
import { S3Error } from 'minio';
import { productionIdOfKey, productionObjectKey } from '../src/object-keys';
import { objectStoreUnavailable, OBJECT_STORE_RETRY_AFTER_S } from '../src/object-store-errors';
import { StorageModule } from '../src/storage.module';

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

describe('StorageModule.forRoot', () => {
  it('binds ARCHIVE_STORE to the adapter SG_STORAGE names', () => {
    const pg = StorageModule.forRoot({ SG_STORAGE: 'postgres' });
    expect(pg.providers).toHaveLength(1);
    const minio = StorageModule.forRoot({ SG_STORAGE: 'minio', MINIO_ENDPOINT: 'http://127.0.0.1:1', MINIO_ACCESS_KEY: 'a', MINIO_SECRET_KEY: 'b', MINIO_BUCKET: 'c' });
    expect(minio.providers).toHaveLength(1);
    expect(minio.providers![0]).not.toBe(pg.providers![0]);
  });

  it('adds the traced wrapper only when SG_TRACING is on', () => {
    expect(StorageModule.forRoot({ SG_STORAGE: 'postgres', SG_TRACING: true }).providers).toHaveLength(2);
    expect(StorageModule.forRoot({ SG_STORAGE: 'postgres', SG_TRACING: false }).providers).toHaveLength(1);
  });

  it('refuses minio without its settings', () => {
    expect(() => StorageModule.forRoot({ SG_STORAGE: 'minio' })).toThrow(/SG_STORAGE=minio needs MINIO_ENDPOINT/);
  });
});
