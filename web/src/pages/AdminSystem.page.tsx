import { SystemScreen } from '../features/admin';

/** /admin/system: data maintenance (administrators only). The screen is the feature's; the page only places it. */
export function AdminSystemPage() {
  return <SystemScreen />;
}
