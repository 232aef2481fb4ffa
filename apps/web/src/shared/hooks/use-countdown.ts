import { useCallback, useEffect, useState } from 'react';

/** mm:ss, as the spec's code dialog shows it. */
function formatMinutesSeconds(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** A seconds countdown driven by wall-clock time, so a throttled background tab stays correct. */
export function useCountdown(seconds: number) {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [endsAt]);

  const secondsLeft = endsAt === null ? seconds : Math.max(0, Math.ceil((endsAt - now) / 1000));
  /** Counts down again, from `from` seconds (a code sent moments ago leaves fewer) or the full time. */
  const restart = useCallback(
    (from: number = seconds) => {
      const start = Date.now();
      setNow(start);
      setEndsAt(start + Math.max(0, Math.min(from, seconds)) * 1000);
    },
    [seconds],
  );
  const reset = useCallback(() => setEndsAt(null), []);

  return { secondsLeft, label: formatMinutesSeconds(secondsLeft), restart, reset };
}
