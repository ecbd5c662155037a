import { ExportsScreen } from '../features/export';

/** /exports: the export history, newest first. The screen is the feature's; the page only places it. */
export function ExportsPage() {
  return <ExportsScreen />;
}
