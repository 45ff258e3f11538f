import { Controller, Delete, Get, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { exerciseBody, exercisesQuery, exerciseUpdateRequest, idParam, listOf, newExerciseRequest, schemaRef } from '@shellgrade/api-contract';
import { ManageExercises } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, isStaff, Roles } from '@shellgrade/auth';
import { JsonBody, ZodPipe } from '@shellgrade/http';
import type { z } from 'zod';
import { exerciseView } from './views';

type ExerciseUpdate = z.infer<typeof exerciseUpdateRequest>;

/** Exercises (rules: ManageExercises); the views show a student no grading script. */
@ApiTags('exercises')
@Controller(['api/exercise', 'api/exercises'])
@UseGuards(AuthGuard)
export class ExercisesController {
  constructor(private readonly exercises: ManageExercises) {}

  @Get()
  @ApiOperation({ summary: 'Exercises without archives (students: published only)' })
  @ApiOkResponse({ schema: listOf(exerciseBody) })
  async list(@CurrentUser() me: AuthenticatedUser, @Query(new ZodPipe(exercisesQuery)) q: z.infer<typeof exercisesQuery>) {
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
  async create(@CurrentUser() me: AuthenticatedUser, @JsonBody(new ZodPipe(newExerciseRequest)) b: z.infer<typeof newExerciseRequest>) {
    return exerciseView(await this.exercises.create(me, exerciseFieldsOf(b)), { full: true, staff: true });
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(exerciseBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(exerciseUpdateRequest)) b: ExerciseUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(exerciseBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(exerciseUpdateRequest)) b: ExerciseUpdate) {
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
