import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { UserManager } from 'oidc-client-ts';
import type { PublicConfig } from '@sift/shared/contracts';
import { configureApiClient, errorMessage } from '../api/client';
import { usePublicConfig } from './publicConfig';
import { queryKeys } from '../api/queryKeys';
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader';
import { ServiceUnavailable } from '../components/ServiceUnavailable/ServiceUnavailable';
import { notify } from '../ui/notify';
import { permissionsFromToken } from './jwt';
import { useAuthStore } from './store';
import {
  createUserManager,
  isAuxiliaryWindow,
  isConsentRequired,
  isSigninCallbackUrl,
  oidcErrorDescription,
  type User,
} from './userManager';

export type AuthStatus = 'loading' | 'ready' | 'auxiliary';

export interface AuthContextValue {
  config: PublicConfig;
  productName: string;
  userManager: UserManager;
  /** The identity provider has been asked and the stored credentials are settled. */
  status: AuthStatus;
  isAuthenticated: boolean;
  /** Redirect login; comes back to the site origin. */
  login: () => Promise<void>;
  /** Popup login (kept for embedding and for tests). */
  loginWithPopup: () => Promise<void>;
  /** A silent renew (iframe, `prompt=none`); a consent-required answer is tolerated. */
  renewSilently: () => Promise<void>;
  /** Redirect logout back to the site origin; falls back to a local sign-out. */
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** Loads the public configuration, then runs the OIDC client for the app below it. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const configQuery = usePublicConfig();
  if (configQuery.data) return <AuthSession config={configQuery.data}>{children}</AuthSession>;
  if (configQuery.isError) {
    return (
      <ServiceUnavailable
        message={errorMessage(configQuery.error, 'The sign-in configuration could not be loaded.')}
        onRetry={() => void configQuery.refetch()}
        retrying={configQuery.isFetching}
      />
    );
  }
  return <FullScreenLoader label="Loading..." />;
}

// The redirect callback may be processed only once (its state is consumed); StrictMode runs effects
// twice in development, so the processing is shared per URL.
const callbackRuns = new Map<string, Promise<User | null>>();

function AuthSession({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = useAuthStore((state) => state.token);
  const [status, setStatus] = useState<AuthStatus>('loading');
  const userManager = useMemo(() => createUserManager(config), [config]);
  const claim = config.permissionsClaim;

  const applyUser = useCallback(
    (user: User) => {
      const { setToken, setPermissions } = useAuthStore.getState();
      setToken(user.access_token);
      setPermissions(permissionsFromToken(user.access_token, claim));
    },
    [claim],
  );

  const signOutLocally = useCallback(async () => {
    useAuthStore.getState().clearCredentials();
    // Drop everything cached for the signed-out account, but keep the public configuration.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.config[0] });
    await userManager.removeUser().catch(() => {});
  }, [queryClient, userManager]);

  // The API client reads the token from the store and signs out on a 401 to a call that carried one.
  useEffect(() => {
    configureApiClient({
      getToken: () => useAuthStore.getState().token,
      onUnauthorized: () => void signOutLocally(),
    });
  }, [signOutLocally]);

  // Keep the store in step with the OIDC client (silent renew, sign-out in another tab).
  useEffect(() => {
    const events = userManager.events;
    const onLoaded = (user: User) => applyUser(user);
    const onUnloaded = () => useAuthStore.getState().clearCredentials();
    const onRenewError = (error: Error) => {
      if (isConsentRequired(error)) return;
      console.error('Get access token failed', error);
    };
    events.addUserLoaded(onLoaded);
    events.addUserUnloaded(onUnloaded);
    events.addSilentRenewError(onRenewError);
    return () => {
      events.removeUserLoaded(onLoaded);
      events.removeUserUnloaded(onUnloaded);
      events.removeSilentRenewError(onRenewError);
    };
  }, [userManager, applyUser]);

  const bootstrapped = useRef(false);
  useEffect(() => {
    if (bootstrapped.current) return;
    bootstrapped.current = true;

    const bootstrap = async () => {
      const url = window.location.href;
      if (isSigninCallbackUrl(url)) {
        if (isAuxiliaryWindow()) {
          // A popup or silent-renew iframe: hand the answer to the window that opened it.
          setStatus('auxiliary');
          await userManager
            .signinCallback(url)
            .catch((error: unknown) => console.error('Login failed', error));
          return;
        }
        let run = callbackRuns.get(url);
        if (!run) {
          run = userManager.signinRedirectCallback(url).catch((error: unknown) => {
            console.error('Login failed', error);
            notify.error(oidcErrorDescription(error) ?? 'Please try again.', { title: 'Login failed' });
            return null;
          });
          callbackRuns.set(url, run);
        }
        await run;
        await navigate('/', { replace: true });
      }

      let user = await userManager.getUser();
      if (user?.expired) {
        try {
          user = await userManager.signinSilent();
        } catch (error) {
          if (!isConsentRequired(error)) {
            console.error('Get access token failed', error);
            await userManager.removeUser();
            user = null;
          }
          // consent_required is tolerated: the flow proceeds with what is held.
        }
      }
      if (user && !user.expired) applyUser(user);
      else if (!user) useAuthStore.getState().clearCredentials();
      setStatus('ready');
    };

    bootstrap().catch((error: unknown) => {
      console.error('Get access token failed', error);
      useAuthStore.getState().clearCredentials();
      setStatus('ready');
    });
  }, [userManager, applyUser, navigate]);

  const login = useCallback(async () => {
    try {
      await userManager.signinRedirect({ redirect_uri: `${window.location.origin}/` });
    } catch (error) {
      console.error('Login failed', error);
      notify.error('Please try again.', { title: 'Login failed' });
    }
  }, [userManager]);

  const loginWithPopup = useCallback(async () => {
    try {
      const user = await userManager.signinPopup();
      applyUser(user);
    } catch (error) {
      console.error('Login failed', error);
      notify.error('Please try again.', { title: 'Login failed' });
    }
  }, [userManager, applyUser]);

  const renewSilently = useCallback(async () => {
    try {
      const user = await userManager.signinSilent();
      if (user) applyUser(user);
    } catch (error) {
      if (!isConsentRequired(error)) console.error('Get access token failed', error);
    }
  }, [userManager, applyUser]);

  const logout = useCallback(async () => {
    try {
      await userManager.signoutRedirect({ post_logout_redirect_uri: window.location.origin });
    } catch (error) {
      console.error('Logout failed', error);
      await signOutLocally();
      await navigate('/login', { replace: true });
    }
  }, [userManager, signOutLocally, navigate]);

  useEffect(() => {
    document.title = config.productName;
  }, [config.productName]);

  const value = useMemo<AuthContextValue>(
    () => ({
      config,
      productName: config.productName,
      userManager,
      status,
      isAuthenticated: status === 'ready' && !!token,
      login,
      loginWithPopup,
      renewSilently,
      logout,
    }),
    [config, userManager, status, token, login, loginWithPopup, renewSilently, logout],
  );

  if (status === 'auxiliary') return null;
  if (status === 'loading') return <FullScreenLoader label="Signing in..." />;
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
