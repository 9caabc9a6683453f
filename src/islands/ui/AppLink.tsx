import type { AnchorHTMLAttributes } from 'react';
import { navigate } from '../../client/state/router';

/**
 * A link to another dashboard screen: a plain click changes the screen without a page load; a click
 * with a modifier or another button (a new tab, a new window) is left to the browser.
 */
export function AppLink({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    />
  );
}
