import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useT } from '../i18n/context';
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
    return <ErrorScreen error={err} onReport={() => void this.report()} />;
  }
}

/** The error screen, in the current language. */
function ErrorScreen({ error, onReport }: { error: Error; onReport: () => void }) {
  const { msg } = useT();
  return (
    <main className="container py-5" role="alert">
      <h1>{msg.error.title}</h1>
      <p>{msg.error.intro}</p>
      <p className="fw-semibold">{error.message || msg.error.unknown}</p>
      <details>
        <summary>{msg.error.stack}</summary>
        <pre className="small bg-body-tertiary p-2">{error.stack}</pre>
      </details>
      <div className="d-flex gap-2 mt-3">
        <a href="/" className="btn btn-primary">
          {msg.error.toStart}
        </a>
        <button type="button" className="btn btn-outline-danger" onClick={onReport}>
          {msg.error.report}
        </button>
      </div>
    </main>
  );
}
