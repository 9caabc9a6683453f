// Where the session lives in the browser, in a module with no dependencies: the page-level scripts that
// run before anything loads (layouts/Shell.astro, directives/signed-in.ts) read these keys too.

/** localStorage key of the signed-in user's snapshot. */
export const USER_KEY = 'session-user';
/** localStorage key of our access token (the spec's name). */
export const ACCESS_TOKEN_KEY = 'accessToken';

/** The login page, coming back to `from` (a path on this site) once signed in. */
export const loginPath = (from: string): string => `/login?from=${encodeURIComponent(from)}`;
