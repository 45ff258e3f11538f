/**
 * Exercises: staff read them all, a teacher changes only the ones it authored (admins: any);
 * a student sees published ones only. The views decide what of a row each role is shown.
 *
 * A changed exercise makes cached submission contexts stale: the wiring binds
 * EXERCISE_REPOSITORY to a decorator that invalidates on write when the spec caches.
 */
import { Inject, Injectable } from '@nestjs/common';
import { isStaff } from '@shellgrade/auth';
import { type Exercise, type ExercisePatch, EXERCISE_REPOSITORY, type ExerciseRepository, type ExerciseState, type NewExercise, notFound } from '@shellgrade/domain';
import type { Actor, Page } from './actor';
import { OwnedRows } from './owned-rows';

@Injectable()
export class ManageExercises {
  private readonly owned: OwnedRows<Exercise, ExercisePatch>;

  constructor(@Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository) {
    this.owned = OwnedRows.ownedBy(exercises, 'exercise', (e) => e.authorId);
  }

  /** Students: published only, whatever state they asked for. */
  list(me: Actor, query: Page & { state?: ExerciseState }): Promise<Exercise[]> {
    return this.exercises.list({ ...query, state: isStaff(me.role) ? query.state : 'published' });
  }

  /** An unpublished exercise does not exist for a student. */
  async findOne(me: Actor, id: number): Promise<Exercise> {
    const exercise = await this.exercises.findById(id);
    if (!exercise || (!isStaff(me.role) && exercise.state !== 'published')) throw notFound('exercise', id);
    return exercise;
  }

  create(me: Actor, fields: Omit<NewExercise, 'authorId'>): Promise<Exercise> {
    return this.exercises.create({ ...fields, authorId: me.id });
  }

  /** Its author or an admin. */
  update(me: Actor, id: number, patch: ExercisePatch): Promise<Exercise> {
    return this.owned.update(me, id, patch);
  }

  /** 409 (from the repository) once students have statements or productions for it. */
  remove(me: Actor, id: number): Promise<void> {
    return this.owned.remove(me, id);
  }
}
