import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { listOf, schemaRef, sequenceBody } from '@shellgrade/api-contract';
import { ManageSequences } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
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

/** Ordered exercise sequences (rules: ManageSequences). */
@ApiTags('sequences')
@Controller(['api/sequence', 'api/sequences'])
@UseGuards(AuthGuard)
export class SequencesController {
  constructor(private readonly sequences: ManageSequences) {}

  @Get()
  @ApiOkResponse({ schema: listOf(sequenceBody) })
  async list(@Query(new ZodPipe(pageQuery)) q: z.infer<typeof pageQuery>) {
    return (await this.sequences.list(q)).map(sequenceView);
  }

  @Get(':id')
  @ApiOkResponse({ schema: schemaRef(sequenceBody) })
  async findOne(@Param('id', new ZodPipe(idParam)) id: number) {
    return sequenceView(await this.sequences.findOne(id));
  }

  @Post()
  @Roles('admin', 'teacher')
  @ApiCreatedResponse({ schema: schemaRef(sequenceBody) })
  async create(@CurrentUser() me: AuthenticatedUser, @Body(new ZodPipe(newSequenceSchema)) b: z.infer<typeof newSequenceSchema>) {
    return sequenceView(await this.sequences.create(me, { name: b.name, description: b.description, exerciseIds: b.exercises }));
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
    return sequenceView(await this.sequences.update(me, id, { name: b.name, description: b.description, exerciseIds: b.exercises }));
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.sequences.remove(me, id);
    return { deleted: true, sequence_id: id };
  }
}
