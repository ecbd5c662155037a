import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAuth } from './AuthProvider';
import { hasPermissions } from './permissions';
import { useAuthStore } from './store';

/** Spec section 2, /*: not signed in → /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return children;
}

/** Whether the signed-in user holds every permission listed. */
export function useHasPermissions(required: readonly string[]): boolean {
  const held = useAuthStore((state) => state.permissions);
  return hasPermissions(held, required);
}

/** Gates a route on permissions; others are sent to /files (spec section 2, admin routes). */
export function RequirePermission({
  permissions,
  children,
}: {
  permissions: readonly string[];
  children: ReactNode;
}) {
  const allowed = useHasPermissions(permissions);
  if (!allowed) return <Navigate to="/files" replace />;
  return children;
}
