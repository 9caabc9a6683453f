// Accounts: the sign-in exchange, the admin check, profiles, and the admins' user list.
import { z } from 'zod';
import { listPageSchema, userProfileSchema } from '../entities.ts';
import { profileUpdateSchema, userListQuerySchema } from '../schemas.ts';
import { refusal, route } from './route.ts';
import { deletedSchema, emailParams, updatedSchema } from './shared.ts';

const noUser = refusal('No such user');

export const usersContract = {
  signIn: route({
    method: 'put',
    path: '/user/{email}',
    summary: 'Exchange a Firebase ID token for an access token',
    description:
      "After a sign-in or sign-up in the browser (Firebase), the ID token as the bearer buys the store's own short-lived access token (`accessToken`), which every protected call then carries as its bearer. The user is made or updated from the token, never from the body.",
    params: emailParams,
    body: {
      schema: z
        .object({ email: z.string().max(320).optional() })
        .describe("The spec's body (the email again); the path's email is the one used."),
      optional: true,
    },
    responses: { 200: { description: 'The access token', schema: z.strictObject({ token: z.string() }) } },
  }),
  isAdmin: route({
    method: 'get',
    path: '/admin/{email}',
    summary: 'Whether a user is an admin',
    params: emailParams,
    responses: { 200: { description: 'The admin flag', schema: z.strictObject({ admin: z.boolean() }) } },
  }),
  profile: route({
    method: 'get',
    path: '/userprofile/{email}',
    summary: "A user's profile",
    params: emailParams,
    responses: { 200: { description: 'The profile', schema: userProfileSchema }, 404: noUser },
  }),
  update: route({
    method: 'put',
    path: '/userupdate/{email}',
    summary: 'Update your profile',
    description: 'Email, role and sign-up date never change here.',
    params: emailParams,
    body: { schema: profileUpdateSchema },
    responses: { 200: { description: 'Changed', schema: updatedSchema } },
  }),
  list: route({
    method: 'get',
    path: '/allusers',
    summary: 'Every user, or a page of them',
    description:
      "Without `limit`, `cursor` or `q`, every user (the spec's array). With any, a page; `q` finds users whose email contains it.",
    query: userListQuerySchema,
    responses: {
      200: {
        description: 'The users, or a page of them',
        schema: z.union([z.array(userProfileSchema), listPageSchema(userProfileSchema)]),
      },
    },
  }),
  remove: route({
    method: 'delete',
    path: '/allusers/dlt/{email}',
    summary: 'Delete a user',
    description:
      "Their sign-in account too. The shop's owners (ADMIN_EMAILS) cannot be deleted, and only they delete admins.",
    params: emailParams,
    responses: {
      200: { description: 'Deleted', schema: deletedSchema },
      404: noUser,
      409: refusal('The last admin'),
      502: refusal('The sign-in account could not be deleted; the user was kept'),
    },
  }),
  makeAdmin: route({
    method: 'put',
    path: '/allusers/makeadmin/{email}',
    summary: 'Make a user an admin',
    description:
      "Only the shop's owners (ADMIN_EMAILS) make admins; the spec's client shows 'Failed to make admin' on a 403.",
    params: emailParams,
    responses: { 200: { description: 'Changed', schema: updatedSchema }, 404: noUser },
  }),
};
