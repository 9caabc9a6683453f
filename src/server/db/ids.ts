import { randomBytes } from 'node:crypto';

/** Opaque ids for tools, orders, reviews: 24 hex characters, like the ObjectIds the spec's `_id` hints at. */
export const newId = (): string => randomBytes(12).toString('hex');
