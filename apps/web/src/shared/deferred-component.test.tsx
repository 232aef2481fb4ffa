import { render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type DeferredComponent, deferredComponent, useDeferredComponent } from './deferred-component';

function Greeting({ name }: { name: string }) {
  return <p>hello {name}</p>;
}

/** What the hook gives, or a placeholder until then. */
function Slot({ greeting }: { greeting: DeferredComponent<{ name: string }> }) {
  const Loaded = useDeferredComponent(greeting);
  return Loaded ? <Loaded name="Ada" /> : <p>placeholder</p>;
}

class Catch extends Component<{ children: ReactNode }, { error?: unknown }> {
  override state: { error?: unknown } = {};
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p role="alert">{String(this.state.error)}</p> : this.props.children;
  }
}

describe('deferredComponent (issue 14: a component kept off the first paint)', () => {
  it('shows the placeholder of the caller first, then the component, loading its chunk once', async () => {
    const load = vi.fn(async () => ({ default: Greeting }));
    const greeting = deferredComponent(load);
    expect(load).not.toHaveBeenCalled();

    const first = render(<Slot greeting={greeting} />);
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(await screen.findByText('hello Ada')).toBeInTheDocument();
    first.unmount();

    // Once the chunk is in, a new mount has the component from its first render.
    render(<Slot greeting={greeting} />);
    expect(screen.getByText('hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('throws a chunk that failed into the nearest error boundary', async () => {
    const greeting = deferredComponent<{ name: string }>(() => Promise.reject(new Error('chunk gone')));
    render(
      <Catch>
        <Slot greeting={greeting} />
      </Catch>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('chunk gone');
    // React reports the error its boundary caught; this test provokes it.
    vi.mocked(console.error).mockClear();
  });
});
