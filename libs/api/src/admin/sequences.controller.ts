import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { listOf, schemaRef, sequenceBody } from '@shellgrade/api-contract';
import { AuthGuard, type AuthenticatedUser, changeable, CurrentUser, Roles } from '@shellgrade/auth';
import { notFound, SEQUENCE_REPOSITORY, type SequenceRepository } from '@shellgrade/domain';
import { ZodPipe } from '@shellgrade/http';
import { z } from 'zod';
import { idParam, nonEmpty, pageQuery } from './schemas';
import { sequenceView } from './views';

const sequenceFields = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  exercises: z.array(idParam).max(500).refine((ids) => new Set(ids).size === ids.length, 'an exercise appears twice'),
});
const newSequenceSchema = sequenceFields
  .extend({ description: sequenceFields.shape.description.default(''), exercises: sequenceFields.shape.exercises.default([]) })
  .strict();
const sequenceUpdateSchema = nonEmpty(sequenceFields);
type SequenceUpdate = z.infer<typeof sequenceUpdateSchema>;

/** Ordered exercise sequences: everyone reads; a teacher changes only the ones it authored (admins: any). */
@ApiTags('sequences')
@Controller(['api/sequence', 'api/sequences'])
@UseGuards(AuthGuard)
export class SequencesController {
  constructor(@Inject(SEQUENCE_REPOSITORY) private readonly sequences: SequenceRepository) {}

  @Get()
  @ApiOkResponse({ schema: listOf(sequenceBody) })
  async list(@Query(new ZodPipe(pageQuery)) q: z.infer<typeof pageQuery>) {
    return (await this.sequences.list(q)).map(sequenceView);
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(sequenceBody) })
  async findOne(@Param('id', new ZodPipe(idParam)) id: number) {
    const s = await this.sequences.findById(id);
    if (!s) throw notFound('sequence', id);
    return sequenceView(s);
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiCreatedResponse({ schema: schemaRef(sequenceBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newSequenceSchema)) b: z.infer<typeof newSequenceSchema>) {
    return sequenceView(await this.sequences.create({ name: b.name, description: b.description, exerciseIds: b.exercises, authorId: me.id }));
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(sequenceBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(sequenceUpdateSchema)) b: SequenceUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(sequenceBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @Body(new ZodPipe(sequenceUpdateSchema)) b: SequenceUpdate) {
    await this.ownSequence(me, id);
    const s = await this.sequences.update(id, { name: b.name, description: b.description, exerciseIds: b.exercises });
    if (!s) throw notFound('sequence', id);
    return sequenceView(s);
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.ownSequence(me, id);
    if (!(await this.sequences.delete(id))) throw notFound('sequence', id);
    return { deleted: true, sequence_id: id };
  }

  /** 404 unless the sequence exists and `me` may change it (its author, or an admin). */
  private async ownSequence(me: AuthenticatedUser, id: number): Promise<void> {
    changeable(me, await this.sequences.findById(id), (s) => s.authorId, 'sequence', id);
  }
}
