// Keeps one broken part from blanking the app: a React error boundary that shows a short message in place of
// what failed to render (a page, a table row, a panel) and leaves the rest, including Sign out, working. It
// logs the error to the console and never retries on its own: `resetKey` changing (a new page) clears it.
import { Component, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  /** What to show instead; receives the error. Default: a paragraph naming the part that failed. */
  fallback?: (error: Error) => ReactNode;
  /** What failed, in words ("this page", "this row"). */
  what?: string;
  /** When it changes, the boundary clears its error and renders its children again. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  key: unknown;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: State): Partial<State> | null {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    console.error(`Punctual dashboard: ${this.props.what ?? 'a part'} failed to render`, error);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (this.props.fallback) return this.props.fallback(error);
    return (
      <p className="status status-error" role="alert" data-testid="render-error">
        {`Could not show ${this.props.what ?? 'this part'}: ${error.message}`}
      </p>
    );
  }
}
