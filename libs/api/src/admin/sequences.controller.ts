import { Controller, Delete, Get, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { idParam, listOf, newSequenceRequest, pageQuery, schemaRef, sequenceBody, sequenceUpdateRequest } from '@shellgrade/api-contract';
import { ManageSequences } from '@shellgrade/application';
import { AuthGuard, type AuthenticatedUser, CurrentUser, Roles } from '@shellgrade/auth';
import { JsonBody, ZodPipe } from '@shellgrade/http';
import type { z } from 'zod';
import { sequenceView } from './views';

type SequenceUpdate = z.infer<typeof sequenceUpdateRequest>;

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
  async create(@CurrentUser() me: AuthenticatedUser, @JsonBody(new ZodPipe(newSequenceRequest)) b: z.infer<typeof newSequenceRequest>) {
    return sequenceView(await this.sequences.create(me, { name: b.name, description: b.description, exerciseIds: b.exercises }));
  }

  @Put(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(sequenceBody) })
  async replace(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(sequenceUpdateRequest)) b: SequenceUpdate) {
    return this.update(me, id, b);
  }

  @Patch(':id')
  @Roles('admin', 'teacher')
  @ApiOkResponse({ schema: schemaRef(sequenceBody) })
  async update(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number, @JsonBody(new ZodPipe(sequenceUpdateRequest)) b: SequenceUpdate) {
    return sequenceView(await this.sequences.update(me, id, { name: b.name, description: b.description, exerciseIds: b.exercises }));
  }

  @Delete(':id')
  @Roles('admin', 'teacher')
  async remove(@CurrentUser() me: AuthenticatedUser, @Param('id', new ZodPipe(idParam)) id: number) {
    await this.sequences.remove(me, id);
    return { deleted: true, sequence_id: id };
  }
}
