import { HOME } from '@elex/contract';
import { screen } from '@testing-library/react';
import useEmblaCarousel from 'embla-carousel-react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/helpers';
import { Carousel, EMBLA_DURATION_FOR_SLIDER_SPEED } from './carousel';

vi.mock('embla-carousel-react', () => ({ default: vi.fn(() => [() => {}, undefined]) }));

/**
 * Embla moves a slide with a spring stepped at 60 frames a second (its ScrollBody: the velocity gains
 * displacement / duration, then keeps 0.68 of itself, each frame). Answers how many milliseconds a
 * slide takes to come 99 % of the way, and how far past its target it swings.
 */
function emblaSlide(duration: number): { ms: number; overshoot: number } {
  const frameMs = 1000 / 60;
  let location = 0;
  let velocity = 0;
  let frames = 0;
  let settledAt = 0;
  let furthest = 0;
  while (frames < 600) {
    velocity += (1 - location) / duration;
    velocity *= 0.68;
    location += velocity;
    frames += 1;
    furthest = Math.max(furthest, location);
    if (!settledAt && Math.abs(1 - location) < 0.01) settledAt = frames;
  }
  return { ms: settledAt * frameMs, overshoot: furthest - 1 };
}

const matchReducedMotion = (matches: boolean) =>
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({ matches, addEventListener() {}, removeEventListener() {} })),
  );

afterEach(() => {
  vi.mocked(useEmblaCarousel).mockClear();
});

describe('the slider speed (spec section 9: 500 ms)', () => {
  it('brings a slide in within the spec speed, no sooner than 90 % of it, without swinging past', () => {
    const slide = emblaSlide(EMBLA_DURATION_FOR_SLIDER_SPEED);
    expect(slide.ms).toBeLessThanOrEqual(HOME.sliderSpeedMs);
    expect(slide.ms).toBeGreaterThanOrEqual(HOME.sliderSpeedMs * 0.9);
    expect(slide.overshoot).toBeLessThan(0.001);
  });

  it('gives the carousel that duration, and none when the visitor asks for reduced motion', () => {
    matchReducedMotion(false);
    const { unmount } = renderAt(<Carousel title="Hot activities" slides={[<p key="a">one</p>]} />);
    expect(screen.getByRole('heading', { name: 'Hot activities' })).toBeInTheDocument();
    expect(vi.mocked(useEmblaCarousel).mock.calls.at(-1)?.[0]).toMatchObject({
      duration: EMBLA_DURATION_FOR_SLIDER_SPEED,
    });
    unmount();

    matchReducedMotion(true);
    renderAt(<Carousel title="Hot activities" slides={[<p key="a">one</p>]} />);
    expect(vi.mocked(useEmblaCarousel).mock.calls.at(-1)?.[0]).toMatchObject({ duration: 0 });
  });
});
