/**
 * The writes the catalogue use cases share: `me` may change a row only if it may change the row's
 * owner's work (its author or teacher, or an admin); anyone else is told the row does not exist.
 * An update or delete that then finds no row (deleted meanwhile) is 404 as well; a delete the
 * database refuses (still referenced) is the repository's 409.
 */
import { changeable } from '@shellgrade/auth';
import { notFound } from '@shellgrade/domain';
import type { Actor } from './actor';

/** What a repository offers for these writes. */
export interface RowWrites<T, P> {
  findById(id: number): Promise<T | null>;
  update(id: number, patch: P): Promise<T | null>;
  delete(id: number): Promise<boolean>;
}

export class OwnedRows<T, P> {
  /** `check` throws 404 unless row `id` exists and `me` may change it. */
  constructor(
    private readonly rows: RowWrites<T, P>,
    private readonly what: string,
    readonly check: (me: Actor, id: number) => Promise<void>,
  ) {}

  /** Rows whose own field names their owner (an exercise's author, a session's teacher). */
  static ownedBy<T, P>(rows: RowWrites<T, P>, what: string, ownerOf: (row: T) => number | null): OwnedRows<T, P> {
    return new OwnedRows(rows, what, async (me, id) => void changeable(me, await rows.findById(id), ownerOf, what, id));
  }

  async update(me: Actor, id: number, patch: P): Promise<T> {
    await this.check(me, id);
    return this.found(await this.rows.update(id, patch), id);
  }

  async remove(me: Actor, id: number): Promise<void> {
    await this.check(me, id);
    if (!(await this.rows.delete(id))) throw notFound(this.what, id);
  }

  /** The row an update returned, or 404 when it was gone. */
  found(row: T | null, id: number): T {
    if (!row) throw notFound(this.what, id);
    return row;
  }
}
