import type { BucketItem, Client } from 'minio';
import { PRODUCTIONS_PREFIX } from './object-keys';
import { s3Code } from './object-store-errors';

/** S3 DeleteObjects accepts at most 1,000 keys per request. */
const DELETE_BATCH = 1_000;

export interface ListedObject {
  key: string;
  lastModified: Date;
  size: number;
}

/** Every object under `prefix`, with its last-modified time and size. */
export async function listObjects(client: Client, bucket: string, prefix = PRODUCTIONS_PREFIX): Promise<ListedObject[]> {
  const items: ListedObject[] = [];
  try {
    const stream = client.listObjectsV2(bucket, prefix, true);
    for await (const item of stream as AsyncIterable<BucketItem>) {
      if (item.name) items.push({ key: item.name, lastModified: item.lastModified, size: item.size });
    }
  } catch (error) {
    if (s3Code(error) !== 'NoSuchBucket') throw error; // no bucket yet: nothing stored
  }
  return items;
}

/** Deletes `keys` in DeleteObjects batches; throws when the server reports a key it could not delete. */
export async function removeObjectsInBatches(client: Client, bucket: string, keys: string[]): Promise<number> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    const batch = keys.slice(i, i + DELETE_BATCH);
    const results = await client.removeObjects(bucket, batch);
    const failed = results.filter((r) => r?.Error);
    if (failed.length) {
      const first = failed[0]!.Error!;
      throw new Error(`could not delete ${failed.length} objects from ${bucket}, e.g. ${first.Key}: ${first.Code} ${first.Message}`);
    }
  }
  return keys.length;
}

/** Deletes every archive object (what `db reset` does to the productions' rows). */
export async function purgeProductionObjects(client: Client, bucket: string): Promise<number> {
  const keys = (await listObjects(client, bucket)).map((o) => o.key);
  return removeObjectsInBatches(client, bucket, keys);
}
