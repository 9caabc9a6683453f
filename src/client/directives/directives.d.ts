// The project's own client directives, for astro check and the editor (astro.config.mjs registers them).
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates only with a stored session; anyone else goes to the login first (signed-in.ts). */
    'client:signedin'?: boolean;
  }
}
