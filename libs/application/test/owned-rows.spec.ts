/**
 * OwnedRows over an in-memory repository (unit test): only the row's owner or an admin updates or
 * deletes it, anyone else is told it does not exist and nothing is written; a row gone between
 * the check and the write is 404 too.
 */
import { DomainError } from '@shellgrade/domain';
import type { Actor } from '../src/actor';
import { OwnedRows } from '../src/owned-rows';

interface Row {
  id: number;
  name: string;
  authorId: number | null;
}

const author: Actor = { id: 1, role: 'teacher' };
const colleague: Actor = { id: 2, role: 'teacher' };
const admin: Actor = { id: 9, role: 'admin' };

function fixture(opts: { vanishOnWrite?: boolean } = {}) {
  const rows = new Map<number, Row>([[7, { id: 7, name: 'seven', authorId: 1 }]]);
  const writes: string[] = [];
  const repo = {
    findById: async (id: number) => rows.get(id) ?? null,
    update: async (id: number, patch: Partial<Row>) => {
      writes.push(`update ${id}`);
      if (opts.vanishOnWrite) rows.delete(id);
      const row = rows.get(id);
      return row ? { ...row, ...patch } : null;
    },
    delete: async (id: number) => {
      writes.push(`delete ${id}`);
      if (opts.vanishOnWrite) rows.delete(id);
      return rows.delete(id);
    },
  };
  return { owned: OwnedRows.ownedBy(repo, 'thing', (r: Row) => r.authorId), writes };
}

const notFound = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e instanceof DomainError ? `${e.kind}: ${e.message}` : String(e)));

it('the author and an admin update and delete; what comes back is the updated row', async () => {
  const { owned, writes } = fixture();
  expect(await owned.update(author, 7, { name: 'renamed' })).toEqual({ id: 7, name: 'renamed', authorId: 1 });
  expect(await owned.update(admin, 7, { name: 'again' })).toEqual({ id: 7, name: 'again', authorId: 1 });
  await owned.remove(admin, 7);
  expect(writes).toEqual(['update 7', 'update 7', 'delete 7']);
});

it('another teacher is told the row does not exist, and nothing is written', async () => {
  const { owned, writes } = fixture();
  expect(await notFound(owned.update(colleague, 7, { name: 'x' }))).toMatch(/^not-found: .*thing 7/);
  expect(await notFound(owned.remove(colleague, 7))).toMatch(/^not-found: .*thing 7/);
  expect(await notFound(owned.remove(author, 8))).toMatch(/^not-found: .*thing 8/);
  expect(writes).toEqual([]);
});

it('a row deleted between the check and the write is 404', async () => {
  const update = fixture({ vanishOnWrite: true });
  expect(await notFound(update.owned.update(author, 7, { name: 'x' }))).toMatch(/^not-found: .*thing 7/);
  const remove = fixture({ vanishOnWrite: true });
  expect(await notFound(remove.owned.remove(author, 7))).toMatch(/^not-found: .*thing 7/);
});
