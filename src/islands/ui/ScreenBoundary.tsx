import { Component, type ReactNode } from 'react';
import { messages } from '../../lib/messages';
import { LoadError } from './States';

/**
 * Keeps the dashboard standing when one screen fails: its code could not load (the connection dropped, or
 * a newer build replaced the file since the page opened) or it threw while rendering. The menu stays, and
 * the screen says so with a reload, which fetches the current build. Keyed by path, so another screen
 * starts clean.
 */
export class ScreenBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return <LoadError message={messages.codeLoadFailed} onRetry={() => window.location.reload()} />;
  }
}
