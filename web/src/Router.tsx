import { createBrowserRouter, Navigate, Outlet, RouterProvider } from 'react-router-dom';
import { AuthProvider } from './auth/AuthProvider';
import { RequireAuth, RequirePermission } from './auth/guards';
import { ADMIN_PERMISSIONS } from './layout/AppHeader/navigation';
import { MainLayout } from './layout/MainLayout/MainLayout';
import { ProfileGate } from './features/account';
import { AdminAccountsPage } from './pages/AdminAccounts.page';
import { AdminSystemPage } from './pages/AdminSystem.page';
import { AuthorsPage } from './pages/Authors.page';
import { ExportsPage } from './pages/Exports.page';
import { FilesPage } from './pages/Files.page';
import { LoginPage } from './pages/Login.page';
import { PeoplePage } from './pages/People.page';
import { PersonPage } from './pages/Person.page';
import { SearchPage } from './pages/Search.page';
import { UploadPage } from './pages/Upload.page';

/**
 * Routes (spec section 2). Everything sits under the auth provider, which handles the sign-in
 * callback before any route decides. `/` and unknown paths go to /files; the admin routes
 * (`/admin`, `/admin/system`) send anyone without `admin:view` to /files.
 */
const router = createBrowserRouter([
  {
    element: (
      <AuthProvider>
        <Outlet />
      </AuthProvider>
    ),
    children: [
      { path: '/login', element: <LoginPage /> },
      {
        element: (
          <RequireAuth>
            <ProfileGate>
              <MainLayout />
            </ProfileGate>
          </RequireAuth>
        ),
        children: [
          { path: '/', element: <Navigate to="/files" replace /> },
          { path: '/files', element: <FilesPage /> },
          { path: '/search', element: <SearchPage /> },
          { path: '/authors', element: <AuthorsPage /> },
          { path: '/people', element: <PeoplePage /> },
          { path: '/people/:id', element: <PersonPage /> },
          { path: '/upload', element: <UploadPage /> },
          { path: '/exports', element: <ExportsPage /> },
          {
            path: '/admin',
            element: (
              <RequirePermission permissions={ADMIN_PERMISSIONS}>
                <Outlet />
              </RequirePermission>
            ),
            children: [
              { index: true, element: <AdminAccountsPage /> },
              { path: 'system', element: <AdminSystemPage /> },
            ],
          },
          { path: '*', element: <Navigate to="/files" replace /> },
        ],
      },
    ],
  },
]);

export function Router() {
  return <RouterProvider router={router} />;
}
