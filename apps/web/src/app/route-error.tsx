import { Component, type ReactNode } from 'react';
import type { Location } from 'react-router';
import { useTranslation } from '../shared/i18n/use-translation';
import { Page } from '../shared/ui/page';
import { ChunkLoadError, classifyChunkError } from './lazy-page';

/** What a route shows instead of a blank screen when its chunk or its render fails. */
function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const failure = error instanceof ChunkLoadError ? error.failure : classifyChunkError(error);
  return (
    <Page title={t('chunkError.title')}>
      <div role="alert" className="card">
        <p>{t(`chunkError.${failure}`)}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {t('chunkError.retry')}
        </button>
      </div>
    </Page>
  );
}

interface BoundaryProps {
  /** The address the failure happened at: going anywhere else shows that page again. */
  location: Location;
  children: ReactNode;
}
interface BoundaryState {
  location: Location;
  error?: { thrown: unknown };
}

/**
 * Shows RouteError in place of what failed below it (a page's chunk, or its render); React reports the
 * error to the console itself. Only a class component can catch render errors. The failure belongs to
 * the address: a navigation clears it.
 */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { location: this.props.location };

  static getDerivedStateFromError(thrown: unknown): Partial<BoundaryState> {
    return { error: { thrown } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { location: props.location, error: undefined };
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error.thrown} /> : this.props.children;
  }
}
