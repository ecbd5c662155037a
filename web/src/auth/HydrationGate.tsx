import { useEffect, useState, type ReactNode } from 'react';
import { waitForRehydration } from './store';
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader';

/** Renders its children once the persisted auth state is restored (or after the 5 s time-out). */
export function HydrationGate({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let active = true;
    void waitForRehydration().then(() => {
      if (active) setReady(true);
    });
    return () => {
      active = false;
    };
  }, []);
  return ready ? children : <FullScreenLoader />;
}
