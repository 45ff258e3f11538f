import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { exerciseBody, listOf, schemaRef } from '@shellgrade/api-contract';
import { ManageExercises } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, isStaff, Roles } from '@shellgrade/auth';
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

/** Exercises (rules: ManageExercises); the views show a student no grading script. */
@ApiTags('exercises')
@Controller(['api/exercise', 'api/exercises'])
@UseGuards(AuthGuard)
export class ExercisesController {
  constructor(private readonly exercises: ManageExercises) {}

  @Get()
  @ApiOperation({ summary: 'Exercises without archives (students: published only)' })
  @ApiOkResponse({ schema: listOf(exerciseBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(listQuery)) q: z.infer<typeof listQuery>) {
    return (await this.exercises.list(me, q)).map((e) => exerciseView(e, { full: false, staff: isStaff(me.role) }));
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(exerciseBody) })
  async findOne(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    return exerciseView(await this.exercises.findOne(me, id), { full: true, staff: isStaff(me.role) });
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiCreatedResponse({ schema: schemaRef(exerciseBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newExerciseSchema)) b: z.infer<typeof newExerciseSchema>) {
    return exerciseView(await this.exercises.create(me, exerciseFieldsOf(b)), { full: true, staff: true });
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
    return exerciseView(await this.exercises.update(me, id, exerciseFieldsOf(b)), { full: true, staff: true });
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  @ApiOperation({ summary: 'Delete an exercise (409 once students have statements or productions for it)' })
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.exercises.remove(me, id);
    return { deleted: true, ex_id: id };
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
