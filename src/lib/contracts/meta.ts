// The API about itself: liveness, readiness, and its own description.
import { z } from 'zod';
import { get } from './route.ts';
import { apiErrorSchema } from './shared.ts';

export const metaContract = {
  health: get('/health', 'Liveness: the server answers', {
    description: 'Answered before the database is open too, with the build the server serves.',
    responses: {
      200: { description: 'Alive', schema: z.strictObject({ ok: z.literal(true), build: z.string().optional() }) },
    },
  }),
  ready: get('/ready', 'Readiness: warmed up after its start, and the database answers and can take writes', {
    responses: {
      200: {
        description: 'Ready',
        schema: z.strictObject({ ok: z.literal(true), database: z.enum(['pglite', 'postgres']) }),
      },
      503: {
        description:
          'Not ready: warming up after its start (code warming_up, about a second), or the database cannot write (or, as any call, is out of reach)',
        schema: z.union([
          z.strictObject({
            ok: z.literal(false),
            database: z.enum(['pglite', 'postgres']),
            error: z.strictObject({ code: z.string(), message: z.string() }),
          }),
          apiErrorSchema,
        ]),
      },
    },
  }),
  openapi: get('/openapi.json', 'This description of the API (OpenAPI 3.1)', {
    cached: true,
    responses: { 200: { description: 'The document', schema: z.looseObject({ openapi: z.string() }) } },
  }),
  docs: get('/docs', 'This description of the API, as a page to read', {
    responses: { 200: { description: 'The page', type: 'text/html' } },
  }),
};
