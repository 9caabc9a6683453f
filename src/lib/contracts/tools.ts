// The catalogue: tools, their stock and their stock ledger.
import { z } from 'zod';
import { adminToolSchema, listPageSchema, stockMovementSchema, toolSchema } from '../entities.ts';
import { listPageQuerySchema, pagingQuerySchema, restockSchema, toolEditSchema, toolInputSchema } from '../schemas.ts';
import { deletedSchema, idParams, insertedSchema, updatedSchema } from './shared.ts';
import { refusal, route } from './route.ts';

const noTool = refusal('No such tool');

export const toolsContract = {
  list: route({
    method: 'get',
    path: '/tools',
    summary: 'The catalogue, or a page of it',
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
  get: route({
    method: 'get',
    path: '/tools/{id}',
    summary: 'One tool',
    cached: true,
    params: idParams,
    responses: { 200: { description: 'The tool', schema: toolSchema }, 404: noTool },
  }),
  create: route({
    method: 'post',
    path: '/tools',
    summary: 'Add a product',
    description:
      "The spec's form sends `MinimumOrderQuantity` (capital M) with the two quantity fields swapped; either spelling of the minimum is accepted, and each number is stored in its own column.",
    body: { schema: toolInputSchema },
    responses: { 201: { description: 'Added', schema: insertedSchema } },
  }),
  remove: route({
    method: 'delete',
    path: '/tools/dlt/{id}',
    summary: 'Delete a product',
    description: 'Its orders keep their lines (name and price as placed).',
    params: idParams,
    responses: { 200: { description: 'Deleted', schema: deletedSchema }, 404: noTool },
  }),
  edit: route({
    method: 'put',
    path: '/tools/{id}',
    summary: 'Edit a product',
    description: 'Every field but the stock, which keeps its own restock call.',
    params: idParams,
    body: { schema: toolEditSchema },
    responses: { 200: { description: 'Changed', schema: updatedSchema }, 404: noTool },
  }),
  forEdit: route({
    method: 'get',
    path: '/tools/{id}/edit',
    summary: 'A product as Edit product shows it',
    params: idParams,
    responses: { 200: { description: 'The tool with its low-stock level', schema: adminToolSchema }, 404: noTool },
  }),
  ledger: route({
    method: 'get',
    path: '/tools/{id}/ledger',
    summary: "A page of a tool's stock movements, newest first",
    params: idParams,
    query: listPageQuerySchema,
    responses: { 200: { description: 'The movements', schema: listPageSchema(stockMovementSchema) }, 404: noTool },
  }),
  restock: route({
    method: 'put',
    path: '/tool/update/{id}',
    summary: 'Set the stock',
    description: "An admin's restock: the new number of units for sale (buying never calls it).",
    params: idParams,
    body: { schema: restockSchema },
    responses: { 200: { description: 'Changed', schema: updatedSchema }, 404: noTool },
  }),
};
