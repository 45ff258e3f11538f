/**
 * Exercises: staff read them all, a teacher changes only the ones it authored (admins: any);
 * a student sees published ones only. The views decide what of a row each role is shown.
 *
 * A changed exercise makes cached submission contexts stale: the wiring binds
 * EXERCISE_REPOSITORY to a decorator that invalidates on write when the spec caches.
 */
import { Inject, Injectable } from '@nestjs/common';
import { changeable, isStaff } from '@shellgrade/auth';
import { type Exercise, type ExercisePatch, EXERCISE_REPOSITORY, type ExerciseRepository, type ExerciseState, type NewExercise, notFound } from '@shellgrade/domain';
import type { Actor, Page } from './actor';

@Injectable()
export class ManageExercises {
  constructor(@Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository) {}

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

  async update(me: Actor, id: number, patch: ExercisePatch): Promise<Exercise> {
    await this.ownExercise(me, id);
    const updated = await this.exercises.update(id, patch);
    if (!updated) throw notFound('exercise', id);
    return updated;
  }

  /** 409 (from the repository) once students have statements or productions for it. */
  async remove(me: Actor, id: number): Promise<void> {
    await this.ownExercise(me, id);
    if (!(await this.exercises.delete(id))) throw notFound('exercise', id);
  }

  /** 404 unless the exercise exists and `me` may change it (its author, or an admin). */
  private async ownExercise(me: Actor, id: number): Promise<void> {
    changeable(me, await this.exercises.findById(id), (e) => e.authorId, 'exercise', id);
  }
}
