// The admins' actions, read only: no call writes, edits or deletes the log.
import { auditEntrySchema, listPageSchema } from '../entities.ts';
import { auditQuerySchema } from '../schemas.ts';
import { get } from './route.ts';

export const auditContract = {
  list: get('/audit', "A page of the admins' actions, newest first", {
    description: 'Of one kind when `type` is given.',
    query: auditQuerySchema,
    responses: { 200: { description: 'The page', schema: listPageSchema(auditEntrySchema) } },
  }),
};
