import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { exerciseBody, listOf, schemaRef } from '@shellgrade/api-contract';
import { AuthGuard, type AuthenticatedUser, changeable, CurrentUser, isStaff, Roles } from '@shellgrade/auth';
import { EXERCISE_REPOSITORY, type ExerciseRepository, notFound, SUBMISSION_CONTEXT_INVALIDATION, type SubmissionContextInvalidation } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import { z } from 'zod';
import { base64Bytes, exerciseStateSchema, idParam, nonEmpty, pageQuery } from './schemas';
import { exerciseView } from './views';

const exerciseFields = z.object({
  slug: z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'lower-case letters, digits and dashes'),
  name: z.string().trim().min(1).max(200),
  statement: z.string().max(1_000_000),
  question_archive: base64Bytes,
  grader_script: z.string().min(1).max(1_000_000),
  state: exerciseStateSchema,
  locale: z.string().min(2).max(16),
  skills: z.array(z.string().min(1).max(64)).max(50),
});
const newExerciseSchema = exerciseFields
  .extend({ state: exerciseStateSchema.default('draft'), locale: exerciseFields.shape.locale.default('en'), skills: exerciseFields.shape.skills.default([]) })
  .strict();
const exerciseUpdateSchema = nonEmpty(exerciseFields);
type ExerciseUpdate = z.infer<typeof exerciseUpdateSchema>;
const listQuery = pageQuery.extend({ state: exerciseStateSchema.optional() });

/**
 * Exercises: staff read them all, a teacher changes only the ones it authored (admins: any);
 * students see published ones, without the grading script.
 */
@ApiTags('exercises')
@Controller(['api/exercise', 'api/exercises'])
@UseGuards(AuthGuard)
export class ExercisesController {
  constructor(
    @Inject(EXERCISE_REPOSITORY) private readonly exercises: ExerciseRepository,
    @Inject(SUBMISSION_CONTEXT_INVALIDATION) private readonly cachedContexts: SubmissionContextInvalidation,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Exercises without archives (students: published only)' })
  @ApiOkResponse({ schema: listOf(exerciseBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(listQuery)) q: z.infer<typeof listQuery>) {
    const staff = isStaff(me.role);
    const rows = await this.exercises.list({ ...q, state: staff ? q.state : 'published' });
    return rows.map((e) => exerciseView(e, { full: false, staff }));
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(exerciseBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    const staff = isStaff(me.role);
    const exercise = await this.exercises.findById(id);
    // An unpublished exercise does not exist for a student.
    if (!exercise || (!staff && exercise.state !== 'published')) throw notFound('exercise', id);
    return exerciseView(exercise, { full: true, staff });
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiCreatedResponse({ schema: schemaRef(exerciseBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newExerciseSchema)) b: z.infer<typeof newExerciseSchema>) {
    const created = await this.exercises.create({ ...exerciseFieldsOf(b), authorId: me.id });
    return exerciseView(created, { full: true, staff: true });
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(exerciseBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(exerciseUpdateSchema)) b: ExerciseUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(exerciseBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(exerciseUpdateSchema)) b: ExerciseUpdate) {
    await this.ownExercise(me, id);
    const updated = await this.exercises.update(id, exerciseFieldsOf(b));
    if (!updated) throw notFound('exercise', id);
    // Awaited: once the teacher has the answer, no replica grades with the old grader or archive.
    await this.cachedContexts.exerciseChanged(id);
    return exerciseView(updated, { full: true, staff: true });
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete an exercise (409 once students have statements or productions for it)' })
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.ownExercise(me, id);
    if (!(await this.exercises.delete(id))) throw notFound('exercise', id);
    await this.cachedContexts.exerciseChanged(id);
    return { deleted: true, ex_id: id };
  }

  /** 404 unless the exercise exists and `me` may change it (its author, or an admin). */
  private async ownExercise(me: AuthenticatedUser, id: number): Promise<void> {
    changeable(me, await this.exercises.findById(id), (e) => e.authorId, 'exercise', id);
  }
}

/** The request body's fields (snake_case wire names) as the repository's exercise fields; update leaves out what the body does not name. */
function exerciseFieldsOf<B extends ExerciseUpdate>(b: B): {
  slug: B['slug'];
  name: B['name'];
  statementHtml: B['statement'];
  questionArchive: B['question_archive'];
  graderScript: B['grader_script'];
  state: B['state'];
  locale: B['locale'];
  skills: B['skills'];
} {
  return {
    slug: b.slug,
    name: b.name,
    statementHtml: b.statement,
    questionArchive: b.question_archive,
    graderScript: b.grader_script,
    state: b.state,
    locale: b.locale,
    skills: b.skills,
  };
}
