// What many contracts share: the path parameters, the spec's write acknowledgements (MongoDB's result
// shapes, which the spec's client reads) and the error body of every refusal.
import { z } from 'zod';
import { emailSchema, idSchema } from '../schemas.ts';

/** A path naming a resource by its id: /tools/{id}. */
export const idParams = z.object({ id: idSchema });
/** A path naming a user by email: /admin/{email}. */
export const emailParams = z.object({ email: emailSchema });

const count = z.number().int().min(0);

/** A created resource: `acknowledged` (the spec's client reads it) and the new id. */
export const insertedSchema = z
  .strictObject({ acknowledged: z.literal(true), insertedId: idSchema })
  .meta({ id: 'Inserted' });
export const updatedSchema = z
  .strictObject({ acknowledged: z.literal(true), matchedCount: count, modifiedCount: count })
  .meta({ id: 'Updated' });
export const deletedSchema = z
  .strictObject({ acknowledged: z.literal(true), deletedCount: count })
  .meta({ id: 'Deleted' });

/** Every refusal: a code a program can test, a message a person can read, and per-field messages for a form. */
export const apiErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string(),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .describe('The first message per field (a nested field by its path: items.0.quantity).'),
    }),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.output<typeof apiErrorSchema>;

/** A 201 answer: the new resource's id (`description` says what was made). */
export const created = (description: string) => ({ description, schema: insertedSchema });
/** A 200 answer to a change: how many rows matched and changed. */
export const changed = (description = 'Changed') => ({ description, schema: updatedSchema });
/** A 200 answer to a deletion: how many rows went. */
export const deleted = (description = 'Deleted') => ({ description, schema: deletedSchema });
