import type { NewSequence, Sequence, SequencePatch, SequenceRepository } from '@shellgrade/domain';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@shellgrade/sql-transaction';
import { allAs, deleteById, one, oneAs, translatePgError } from '../queryable';
import { toSequence } from '../rows';

export type { NewSequence } from '@shellgrade/domain';

const SELECT_SEQUENCE = `
  SELECT s.id, s.name, s.description, s.author_id,
         COALESCE(array_agg(se.exercise_id ORDER BY se.position) FILTER (WHERE se.exercise_id IS NOT NULL), '{}') AS exercise_ids
    FROM sequences s LEFT JOIN sequence_exercises se ON se.sequence_id = s.id`;

export class PgSequenceRepository implements SequenceRepository {
  constructor(private readonly pool: Pool) {}

  async findById(id: number): Promise<Sequence | null> {
    return oneAs(this.pool, `${SELECT_SEQUENCE} WHERE s.id = $1 GROUP BY s.id`, [id], toSequence);
  }

  async findByName(name: string): Promise<Sequence | null> {
    return oneAs(this.pool, `${SELECT_SEQUENCE} WHERE s.name = $1 GROUP BY s.id`, [name], toSequence);
  }

  async list(opts: { limit: number; offset: number }): Promise<Sequence[]> {
    return allAs(this.pool, `${SELECT_SEQUENCE} GROUP BY s.id ORDER BY s.id LIMIT $1 OFFSET $2`, [opts.limit, opts.offset], toSequence);
  }

  async create(s: NewSequence): Promise<Sequence> {
    try {
      const id = await inTransaction(this.pool, async (c) => {
        const row = await one<{ id: number }>(c, 'INSERT INTO sequences (name, description, author_id) VALUES ($1, $2, $3) RETURNING id', [
          s.name,
          s.description,
          s.authorId ?? null,
        ]);
        await replaceExercises(c, row!.id, s.exerciseIds);
        return row!.id;
      });
      return (await this.findById(id))!;
    } catch (err) {
      translatePgError(err, `sequence ${s.name}`);
    }
  }

  /** Updates fields; when exerciseIds is given it replaces the ordered list. */
  async update(id: number, p: SequencePatch): Promise<Sequence | null> {
    try {
      const found = await inTransaction(this.pool, async (c) => {
        const row = await one<{ id: number }>(
          c,
          'UPDATE sequences SET name = COALESCE($2, name), description = COALESCE($3, description) WHERE id = $1 RETURNING id',
          [id, p.name ?? null, p.description ?? null],
        );
        if (row && p.exerciseIds) await replaceExercises(c, id, p.exerciseIds);
        return row !== null;
      });
      return found ? this.findById(id) : null;
    } catch (err) {
      translatePgError(err, `sequence ${id}`);
    }
  }

  async delete(id: number): Promise<boolean> {
    return deleteById(this.pool, 'sequences', id, `sequence ${id}`);
  }
}

async function replaceExercises(c: PoolClient, sequenceId: number, exerciseIds: number[]): Promise<void> {
  await c.query('DELETE FROM sequence_exercises WHERE sequence_id = $1', [sequenceId]);
  await c.query(
    `INSERT INTO sequence_exercises (sequence_id, exercise_id, position)
     SELECT $1, ex_id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS t(ex_id, ord)`,
    [sequenceId, exerciseIds],
  );
}
