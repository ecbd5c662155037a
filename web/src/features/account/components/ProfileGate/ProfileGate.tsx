import type { ReactNode } from 'react';
import { errorMessage } from '../../../../api/client';
import { useMe } from '../../api';
import { useAuth } from '../../../../auth/AuthProvider';
import { AwaitingApprovalPage } from '../AwaitingApproval/AwaitingApproval';
import { ProfileSetupPage } from '../ProfileSetup/ProfileSetup';
import { FullScreenLoader } from '../../../../components/FullScreenLoader/FullScreenLoader';
import { ServiceUnavailable } from '../../../../components/ServiceUnavailable/ServiceUnavailable';

/**
 * Spec section 2, /*: what a signed-in user sees depends on the profile: a spinner while it loads,
 * Awaiting Approval when inactive, profile setup when not onboarded, else the main area.
 */
export function ProfileGate({ children }: { children: ReactNode }) {
  const { isAuthenticated, logout, productName } = useAuth();
  const me = useMe(isAuthenticated);
  const signOut = () => void logout();

  // Held data wins over a failed refetch (a failed Recheck Status keeps the screen and shows a toast).
  if (me.data) {
    if (!me.data.active) {
      return (
        <AwaitingApprovalPage onRecheck={() => me.refetch()} rechecking={me.isFetching} onLogout={signOut} />
      );
    }
    if (!me.data.onboarded) {
      return <ProfileSetupPage account={me.data} productName={productName} onLogout={signOut} />;
    }
    return children;
  }
  if (me.isError) {
    return (
      <ServiceUnavailable
        message={errorMessage(me.error, 'An unknown error occurred while loading your account.')}
        onRetry={() => void me.refetch()}
        retrying={me.isFetching}
        onLogout={signOut}
      />
    );
  }
  return <FullScreenLoader label="Loading your data..." />;
}
