// Reviews: the spec's general ones on the home page, reviews of a tool by its buyers, and moderation.
import {
  moderationPageSchema,
  reviewsPageSchema,
  toolReviewEligibilitySchema,
  toolReviewsPageSchema,
} from '../entities.ts';
import { reviewHiddenSchema, reviewInputSchema, reviewsQuerySchema, toolReviewsQuerySchema } from '../schemas.ts';
import { get, post, put, refusal } from './route.ts';
import { changed, created } from './shared.ts';

const noTool = refusal('No such tool');

export const reviewsContract = {
  list: get('/reviews', 'A page of the reviews', {
    description: "The spec's paginator: `pageNumber` counts from 0.",
    cached: true,
    query: reviewsQuerySchema,
    responses: { 200: { description: 'The page and the total', schema: reviewsPageSchema } },
  }),
  ofTool: get('/tools/{id}/reviews', "A page of a tool's reviews, newest first", {
    description: 'With their count and average.',
    cached: true,
    query: toolReviewsQuerySchema,
    responses: { 200: { description: 'The page', schema: toolReviewsPageSchema }, 404: noTool },
  }),
  eligibility: get('/tools/{id}/reviews/eligibility', 'Whether you may review a tool now', {
    responses: { 200: { description: 'Yes, or why not', schema: toolReviewEligibilitySchema }, 404: noTool },
  }),
  create: post('/review', 'Post a review', {
    description:
      "The spec's general review, or with `toolId` a review of that tool by one of its buyers (a paid order), once each. `addedBy` is the signed-in user, whatever the body says.",
    body: { schema: reviewInputSchema },
    responses: {
      201: created('Posted'),
      403: refusal('A tool review by someone who has not bought it'),
      404: noTool,
      409: refusal('Reviewed this tool already'),
    },
  }),
  moderation: get('/reviews/moderation', 'A page of every review, with its author and whether it is hidden', {
    query: reviewsQuerySchema,
    responses: { 200: { description: 'The page and the total', schema: moderationPageSchema } },
  }),
  hide: put('/reviews/hide/{id}', 'Hide a review from the public lists, or show it again', {
    body: { schema: reviewHiddenSchema },
    responses: { 200: changed(), 404: refusal('No such review') },
  }),
};
