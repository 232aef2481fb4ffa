import useEmblaCarousel from 'embla-carousel-react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from '../../../shared/i18n/use-translation';
import { prefersReducedMotion } from '../../../shared/reduced-motion';

/**
 * spec section 9: slider speed 500 ms (HOME.sliderSpeedMs). Embla's `duration` is not in milliseconds but the strength of
 * a 60 fps spring: 20 brings a slide 99 % of the way in about 480 ms with no overshoot (measured by
 * stepping Embla's ScrollBody with its default friction). Reduced motion jumps instead.
 */
export const EMBLA_DURATION_FOR_SLIDER_SPEED = 20;

// jsdom (unit tests) has no ResizeObserver: the slides then stay a plain scrollable row.
const canAnimate = () => typeof window.ResizeObserver === 'function';

/** An accessible slider (WAI-ARIA carousel pattern): named region, labelled slides, prev/next buttons. */
export function Carousel({
  title,
  slides,
  className,
}: {
  title: string;
  slides: ReactNode[];
  className?: string;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const [viewportRef, api] = useEmblaCarousel({
    align: 'start',
    containScroll: 'trimSnaps',
    duration: prefersReducedMotion() ? 0 : EMBLA_DURATION_FOR_SLIDER_SPEED,
    active: canAnimate(),
  });
  const [canPrevious, setCanPrevious] = useState(false);
  const [canNext, setCanNext] = useState(false);

  const update = useCallback(() => {
    setCanPrevious(api?.canScrollPrev() ?? false);
    setCanNext(api?.canScrollNext() ?? false);
  }, [api]);

  useEffect(() => {
    if (!api) return;
    update();
    api.on('select', update).on('reInit', update);
    return () => {
      api.off('select', update).off('reInit', update);
    };
  }, [api, update]);

  const hasControls = canPrevious || canNext;
  return (
    <section
      className={`carousel ${className ?? ''}`}
      aria-roledescription={t('homePublic.carousel')}
      aria-labelledby={headingId}
    >
      <div className="carousel-header">
        <h2 id={headingId}>{title}</h2>
        {hasControls ? (
          <div className="carousel-controls">
            <button
              type="button"
              className="icon-button carousel-button"
              aria-label={t('homePublic.previousSlide')}
              disabled={!canPrevious}
              onClick={() => api?.scrollPrev()}
            >
              <ChevronLeft size={20} aria-hidden="true" />
            </button>
            <button
              type="button"
              className="icon-button carousel-button"
              aria-label={t('homePublic.nextSlide')}
              disabled={!canNext}
              onClick={() => api?.scrollNext()}
            >
              <ChevronRight size={20} aria-hidden="true" />
            </button>
          </div>
        ) : null}
      </div>
      <div className="carousel-viewport" ref={viewportRef}>
        <div className="carousel-track">
          {slides.map((slide, index) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: slides are fixed for the life of the list, their position is their identity
              key={index}
              className="carousel-slide"
              role="group"
              aria-roledescription={t('homePublic.slide')}
              aria-label={t('homePublic.slideOf', { index: index + 1, total: slides.length })}
            >
              {slide}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
