// Astro's bundler resolves a relative import written without an extension; Node does not. The scale part
// seeds stores through src/server/db directly, so a relative import that fails is retried with ".ts"
// appended (a safety net: the server's sources now spell every extension).
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith('./') || specifier.startsWith('../');
      if (!relative || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      return nextResolve(`${specifier}.ts`, context);
    }
  },
});
