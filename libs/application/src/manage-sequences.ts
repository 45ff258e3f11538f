/** Ordered exercise sequences: everyone reads; a teacher changes only the ones it authored (admins: any). */
import { Inject, Injectable } from '@nestjs/common';
import { type NewSequence, notFound, type Sequence, SEQUENCE_REPOSITORY, type SequencePatch, type SequenceRepository } from '@shellgrade/domain';
import type { Actor, Page } from './actor';
import { OwnedRows } from './owned-rows';

@Injectable()
export class ManageSequences {
  private readonly owned: OwnedRows<Sequence, SequencePatch>;

  constructor(@Inject(SEQUENCE_REPOSITORY) private readonly sequences: SequenceRepository) {
    this.owned = OwnedRows.ownedBy(sequences, 'sequence', (s) => s.authorId);
  }

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

  /** Its author or an admin. */
  update(me: Actor, id: number, patch: SequencePatch): Promise<Sequence> {
    return this.owned.update(me, id, patch);
  }

  remove(me: Actor, id: number): Promise<void> {
    return this.owned.remove(me, id);
  }
}
