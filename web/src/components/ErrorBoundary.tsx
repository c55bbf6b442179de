import { Component, type ErrorInfo, type ReactNode } from 'react';
import { de } from '../i18n/de';
import { runtimeConfig } from '../runtime-config';
import { reportError } from '../telemetry/sentry';

interface State {
  error: Error | null;
}

/** The global error screen 'Interner Fehler' (message, stack, start page, report). */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  private report = async () => {
    const err = this.state.error;
    const sent = await reportError(err);
    if (!sent && runtimeConfig.footer.contactUrl)
      window.open(runtimeConfig.footer.contactUrl, '_blank', 'noopener');
  };

  override render() {
    const err = this.state.error;
    if (!err) return this.props.children;
    return (
      <main className="container py-5" role="alert">
        <h1>{de.error.title}</h1>
        <p>{de.error.intro}</p>
        <p className="fw-semibold">{err.message || de.error.unknown}</p>
        <details>
          <summary>{de.error.stack}</summary>
          <pre className="small bg-body-tertiary p-2">{err.stack}</pre>
        </details>
        <div className="d-flex gap-2 mt-3">
          <a href="/" className="btn btn-primary">
            {de.error.toStart}
          </a>
          <button
            type="button"
            className="btn btn-outline-danger"
            onClick={() => void this.report()}
          >
            {de.error.report}
          </button>
        </div>
      </main>
    );
  }
}
