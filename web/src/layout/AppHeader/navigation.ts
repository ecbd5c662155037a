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
  // Beyond the spec (issue 35): one entry per researcher.
  { id: 'people', label: 'People', to: '/people' },
  { id: 'upload', label: 'Upload', to: '/upload' },
  { id: 'exports', label: 'Exports', to: '/exports' },
];

/** Admin menu entries, shown only to holders of these permissions (their routes require them too). */
export const ADMIN_PERMISSIONS: readonly string[] = [ADMIN_VIEW];
export const ADMIN_MENU: readonly NavItem[] = [
  { id: 'admin', label: 'Accounts', to: '/admin' },
  { id: 'admin-system', label: 'System Admin', to: '/admin/system' },
];
