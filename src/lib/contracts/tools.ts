// The catalogue: tools, their stock and their stock ledger.
import { z } from 'zod';
import { adminToolSchema, listPageSchema, stockMovementSchema, toolSchema } from '../entities.ts';
import { listPageQuerySchema, pagingQuerySchema, restockSchema, toolEditSchema, toolInputSchema } from '../schemas.ts';
import { changed, created, deleted } from './shared.ts';
import { del, get, post, put, refusal } from './route.ts';

const noTool = refusal('No such tool');

export const toolsContract = {
  list: get('/tools', 'The catalogue, or a page of it', {
    cached: true,
    description:
      "Without `limit` or `cursor`, every tool, newest first (the spec's array; the cached public read). With either, a page `{items, total, nextCursor}` (Manage products); an admin's page has each tool's low-stock level, and `sort=low-stock` (admins only) lists the tools below it first.",
    query: pagingQuerySchema.extend({
      sort: z.enum(['newest', 'low-stock'], { error: 'sort must be newest or low-stock' }).default('newest'),
    }),
    responses: {
      200: {
        description: 'The tools, or a page of them',
        schema: z.union([z.array(toolSchema), listPageSchema(z.union([adminToolSchema, toolSchema]))]),
      },
      401: refusal('`sort=low-stock` without signing in'),
      403: refusal('`sort=low-stock` by someone not an admin'),
    },
  }),
  get: get('/tools/{id}', 'One tool', {
    cached: true,
    responses: { 200: { description: 'The tool', schema: toolSchema }, 404: noTool },
  }),
  create: post('/tools', 'Add a product', {
    description:
      "The spec's form sends `MinimumOrderQuantity` (capital M) with the two quantity fields swapped; either spelling of the minimum is accepted, and each number is stored in its own column.",
    body: { schema: toolInputSchema },
    responses: { 201: created('Added') },
  }),
  remove: del('/tools/dlt/{id}', 'Delete a product', {
    description: 'Its orders keep their lines (name and price as placed).',
    responses: { 200: deleted(), 404: noTool },
  }),
  edit: put('/tools/{id}', 'Edit a product', {
    description: 'Every field but the stock, which keeps its own restock call.',
    body: { schema: toolEditSchema },
    responses: { 200: changed(), 404: noTool },
  }),
  forEdit: get('/tools/{id}/edit', 'A product as Edit product shows it', {
    responses: { 200: { description: 'The tool with its low-stock level', schema: adminToolSchema }, 404: noTool },
  }),
  ledger: get('/tools/{id}/ledger', "A page of a tool's stock movements, newest first", {
    query: listPageQuerySchema,
    responses: { 200: { description: 'The movements', schema: listPageSchema(stockMovementSchema) }, 404: noTool },
  }),
  restock: put('/tool/update/{id}', 'Set the stock', {
    description: "An admin's restock: the new number of units for sale (buying never calls it).",
    body: { schema: restockSchema },
    responses: { 200: changed(), 404: noTool },
  }),
};
