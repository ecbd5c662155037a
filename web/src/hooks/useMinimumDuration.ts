import { useEffect, useRef, useState } from 'react';

/**
 * `active`, held true for at least `minimumMs` once it turns true (spec section 2: the search
 * loading state shows for at least 1 second, so fast answers do not flicker).
 */
export function useMinimumDuration(active: boolean, minimumMs: number): boolean {
  const [held, setHeld] = useState(active);
  const startedAt = useRef<number | null>(active ? Date.now() : null);

  useEffect(() => {
    if (active) {
      startedAt.current = Date.now();
      setHeld(true);
      return;
    }
    if (startedAt.current === null) {
      setHeld(false);
      return;
    }
    const remaining = minimumMs - (Date.now() - startedAt.current);
    if (remaining <= 0) {
      startedAt.current = null;
      setHeld(false);
      return;
    }
    const timer = setTimeout(() => {
      startedAt.current = null;
      setHeld(false);
    }, remaining);
    return () => clearTimeout(timer);
  }, [active, minimumMs]);

  return active || held;
}
