import { loadVariant, type VariantSpec } from '../src';

/** The MinIO presets of issue 8 and the postgres preset each one must match in everything but storage. */
const PRESETS: [minio: string, postgres: string][] = [
  ['mon-minio', 'naked-mon'],
  ['msa-minio-1-2', 'msa-1-2'],
  ['msa-minio-1-4', 'msa-1-4'],
  ['msa-rabbitmq-minio-1-4', 'msa-rabbitmq-1-4'],
  ['msa-bullmq-minio-1-4', 'msa-bullmq-1-4'],
  ['msa-rabbitmq-minio-2-4-4', 'msa-rabbitmq-2-4-4'],
];

const comparable = (spec: VariantSpec) => {
  const { name: _name, description: _description, paper: _paper, storage: _storage, ...rest } = spec as VariantSpec & Record<string, unknown>;
  return rest;
};

describe('MinIO presets', () => {
  it.each(PRESETS)('%s stores archives in minio and otherwise equals %s', (minioName, postgresName) => {
    const minio = loadVariant(minioName);
    const postgres = loadVariant(postgresName);
    expect(minio.storage).toBe('minio');
    expect(postgres.storage).toBe('postgres');
    expect(comparable(minio)).toEqual(comparable(postgres));
  });
});
