// `client:signedin`: hydrates an island of a page the spec keeps for signed-in users (a tool's page) only
// when this browser holds a session; a visitor without one goes to the login at once, before the
// island's code (React, Firebase: ~200 kB) is fetched. A stored session whose token has run out still
// hydrates: the island renews it or signs out (RequireAuth), as before. A signed-in page's island code
// is fetched once its first paint is shown (the page is server-rendered, so it shows the form already).
import type { ClientDirective } from 'astro';
import { afterFirstPaint } from '../../lib/after-first-paint';
import { loginPath, USER_KEY } from '../state/session-keys';

const signedIn: ClientDirective = (load) => {
  if (localStorage.getItem(USER_KEY)) afterFirstPaint(() => void load().then((hydrate) => hydrate()));
  else location.replace(loginPath(location.pathname + location.search));
};

export default signedIn;
