import { PipeTransform } from '@nestjs/common';
import type { ZodType } from 'zod';

/** Validates a body/param/query with a zod schema; the ProblemFilter turns ZodError into 400. */
export class ZodPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly schema: ZodType<T>) {}

  transform(value: unknown): T {
    return this.schema.parse(value);
  }
}
