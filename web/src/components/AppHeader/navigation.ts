import { ADMIN_VIEW } from '../../auth/permissions';

export interface NavItem {
  /** The tab id; the route is named after it (spec section 2). */
  id: string;
  label: string;
  to: string;
}

/** Top navigation tabs of the main area. */
export const MAIN_TABS: readonly NavItem[] = [
  { id: 'files', label: 'Files', to: '/files' },
  { id: 'search', label: 'Search', to: '/search' },
  { id: 'authors', label: 'Authors', to: '/authors' },
  { id: 'upload', label: 'Upload', to: '/upload' },
];

/**
 * Admin menu entries, shown only to holders of these permissions. Empty until the admin screens
 * (/admin: Accounts, /admin/system: System Admin) exist; add them here together with their routes
 * (wrapped in `RequirePermission`).
 */
export const ADMIN_PERMISSIONS: readonly string[] = [ADMIN_VIEW];
export const ADMIN_MENU: readonly NavItem[] = [];
