/** Ordered exercise sequences: everyone reads; a teacher changes only the ones it authored (admins: any). */
import { Inject, Injectable } from '@nestjs/common';
import { changeable } from '@shellgrade/auth';
import { type NewSequence, notFound, type Sequence, SEQUENCE_REPOSITORY, type SequencePatch, type SequenceRepository } from '@shellgrade/domain';
import type { Actor, Page } from './actor';

@Injectable()
export class ManageSequences {
  constructor(@Inject(SEQUENCE_REPOSITORY) private readonly sequences: SequenceRepository) {}

  list(page: Page): Promise<Sequence[]> {
    return this.sequences.list(page);
  }

  async findOne(id: number): Promise<Sequence> {
    const s = await this.sequences.findById(id);
    if (!s) throw notFound('sequence', id);
    return s;
  }

  create(me: Actor, fields: Omit<NewSequence, 'authorId'>): Promise<Sequence> {
    return this.sequences.create({ ...fields, authorId: me.id });
  }

  async update(me: Actor, id: number, patch: SequencePatch): Promise<Sequence> {
    await this.ownSequence(me, id);
    const s = await this.sequences.update(id, patch);
    if (!s) throw notFound('sequence', id);
    return s;
  }

  async remove(me: Actor, id: number): Promise<void> {
    await this.ownSequence(me, id);
    if (!(await this.sequences.delete(id))) throw notFound('sequence', id);
  }

  /** 404 unless the sequence exists and `me` may change it (its author, or an admin). */
  private async ownSequence(me: Actor, id: number): Promise<void> {
    changeable(me, await this.sequences.findById(id), (s) => s.authorId, 'sequence', id);
  }
}
