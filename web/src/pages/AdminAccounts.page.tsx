import { AccountsScreen } from '../features/admin';

/** /admin: accounts (administrators only). The screen is the feature's; the page only places it. */
export function AdminAccountsPage() {
  return <AccountsScreen />;
}
