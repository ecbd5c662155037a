import { Outlet } from 'react-router-dom';
import { AppShell, Container } from '@mantine/core';
import { AppHeader } from '../AppHeader/AppHeader';
import { UploadWatcher } from '../../features/upload';

/** The main area: header with navigation, the current screen, and the background upload watcher. */
export function MainLayout() {
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <AppHeader />
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xl" px={0}>
          <Outlet />
        </Container>
      </AppShell.Main>
      <UploadWatcher />
    </AppShell>
  );
}
