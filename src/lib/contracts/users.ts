// Accounts: the sign-in exchange, the admin check, profiles, and the admins' user list.
import { z } from 'zod';
import { listPageSchema, userProfileSchema } from '../entities.ts';
import { profileUpdateSchema, userListQuerySchema } from '../schemas.ts';
import { del, get, put, refusal } from './route.ts';
import { changed, deleted } from './shared.ts';

const noUser = refusal('No such user');

export const usersContract = {
  signIn: put('/user/{email}', 'Exchange a Firebase ID token for an access token', {
    description:
      "After a sign-in or sign-up in the browser (Firebase), the ID token as the bearer buys the store's own short-lived access token (`accessToken`), which every protected call then carries as its bearer. The user is made or updated from the token, never from the body.",
    body: {
      schema: z
        .object({ email: z.string().max(320).optional() })
        .describe("The spec's body (the email again); the path's email is the one used."),
      optional: true,
    },
    responses: { 200: { description: 'The access token', schema: z.strictObject({ token: z.string() }) } },
  }),
  isAdmin: get('/admin/{email}', 'Whether a user is an admin', {
    responses: { 200: { description: 'The admin flag', schema: z.strictObject({ admin: z.boolean() }) } },
  }),
  profile: get('/userprofile/{email}', "A user's profile", {
    responses: { 200: { description: 'The profile', schema: userProfileSchema }, 404: noUser },
  }),
  update: put('/userupdate/{email}', 'Update your profile', {
    description: 'Email, role and sign-up date never change here.',
    body: { schema: profileUpdateSchema },
    responses: { 200: changed() },
  }),
  list: get('/allusers', 'Every user, or a page of them', {
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
  remove: del('/allusers/dlt/{email}', 'Delete a user', {
    description:
      "Their sign-in account too. The shop's owners (ADMIN_EMAILS) cannot be deleted, and only they delete admins.",
    responses: {
      200: deleted(),
      404: noUser,
      409: refusal('The last admin'),
      502: refusal('The sign-in account could not be deleted; the user was kept'),
    },
  }),
  makeAdmin: put('/allusers/makeadmin/{email}', 'Make a user an admin', {
    description:
      "Only the shop's owners (ADMIN_EMAILS) make admins; the spec's client shows 'Failed to make admin' on a 403.",
    responses: { 200: changed(), 404: noUser },
  }),
};
