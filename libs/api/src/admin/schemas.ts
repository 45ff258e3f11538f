/** zod schemas shared by the CRUD controllers (bodies use the original API's snake_case). */
import { z } from 'zod';

export const idParam = z.coerce.number().int().positive().max(2_147_483_647);

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const optionalId = idParam.optional();

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Binary fields (question archives) travel as base64 in JSON. */
export const base64Bytes = z
  .string()
  .max(8 * 1024 * 1024)
  .regex(BASE64, 'must be base64')
  .transform((s) => Buffer.from(s, 'base64'));

export const isoDate = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date')
  .transform((s) => new Date(s));
export const roleSchema = z.enum(['admin', 'teacher', 'student']);
export const exerciseStateSchema = z.enum(['draft', 'published', 'archived']);

/** PATCH and PUT both accept partial bodies, but an empty update is a client error. */
export const nonEmpty = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) =>
  schema.partial().strict().refine((v) => Object.values(v).some((x) => x !== undefined), 'no field to update');
