import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Avatar, Burger, Button, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMe } from '../../features/account';
import { useAuth } from '../../auth/AuthProvider';
import { useHasPermissions } from '../../auth/guards';
import { initials } from '../../lib/format';
import { ADMIN_MENU, ADMIN_PERMISSIONS, MAIN_TABS } from './navigation';
import classes from './AppHeader.module.css';

/**
 * Header of the main area: the logo button (to /files), the navigation tabs (links with
 * aria-current; a menu on small screens, where the person's name shows beside the account menu)
 * and the account menu.
 */
export function AppHeader() {
  const { productName, logout, isAuthenticated } = useAuth();
  const me = useMe(isAuthenticated);
  const isAdmin = useHasPermissions(ADMIN_PERMISSIONS);
  const navigate = useNavigate();
  const location = useLocation();
  const [navOpen, nav] = useDisclosure(false);
  const account = me.data;
  const fullName = account ? `${account.firstName} ${account.lastName}`.trim() : '';
  const adminEntries = isAdmin ? ADMIN_MENU : [];
  // The longest matching route wins (/admin/system over /admin).
  const current = [...MAIN_TABS, ...adminEntries]
    .filter((tab) => location.pathname === tab.to || location.pathname.startsWith(`${tab.to}/`))
    .sort((a, b) => b.to.length - a.to.length)[0];

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="md" wrap="nowrap">
        <Menu opened={navOpen} onChange={nav.toggle} position="bottom-start">
          <Menu.Target>
            <Burger opened={navOpen} hiddenFrom="sm" size="sm" aria-label="Open navigation" />
          </Menu.Target>
          <Menu.Dropdown hiddenFrom="sm">
            {MAIN_TABS.map((tab) => (
              <Menu.Item
                key={tab.id}
                onClick={() => void navigate(tab.to)}
                aria-current={current === tab ? 'page' : undefined}
              >
                {tab.label}
              </Menu.Item>
            ))}
            {adminEntries.length > 0 && <Menu.Label>Admin</Menu.Label>}
            {adminEntries.map((item) => (
              <Menu.Item key={item.id} onClick={() => void navigate(item.to)}>
                {item.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <Button component={Link} to="/files" variant="subtle" size="md" fw={800} fz="xl" px="xs">
          {productName}
        </Button>
        <Group component="nav" aria-label="Main" gap={4} visibleFrom="sm" wrap="nowrap">
          {MAIN_TABS.map((tab) => (
            <Button
              key={tab.id}
              component={NavLink}
              to={tab.to}
              variant="subtle"
              color="gray"
              className={classes.tab}
            >
              {tab.label}
            </Button>
          ))}
          {adminEntries.length > 0 && (
            <Menu position="bottom-start">
              <Menu.Target>
                <Button
                  variant="subtle"
                  color="gray"
                  className={classes.tab}
                  data-active={(current && adminEntries.includes(current)) || undefined}
                >
                  Admin
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {adminEntries.map((item) => (
                  <Menu.Item
                    key={item.id}
                    component={Link}
                    to={item.to}
                    aria-current={current === item ? 'page' : undefined}
                  >
                    {item.label}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>

      <Group gap="xs" wrap="nowrap" miw={0}>
        {/* Spec: on small screens the header shows the person's name (the tabs are in the menu). */}
        <Text hiddenFrom="sm" size="sm" fw={600} truncate="end" maw={160}>
          {fullName}
        </Text>
        <Menu position="bottom-end" width={260} withArrow>
          <Menu.Target>
            <UnstyledButton aria-label="Account menu">
              <Avatar color="blue" radius="xl" alt={fullName || 'Account'}>
                {initials(account?.firstName, account?.lastName)}
              </Avatar>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Signed in as</Menu.Label>
            <div style={{ padding: '4px 12px 8px' }}>
              <Text fw={600} size="sm">
                {fullName || 'Unknown user'}
              </Text>
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {account?.email}
              </Text>
            </div>
            {adminEntries.length > 0 && (
              <>
                <Menu.Divider />
                <Menu.Label>Admin</Menu.Label>
                {adminEntries.map((item) => (
                  <Menu.Item key={item.id} component={Link} to={item.to}>
                    {item.label}
                  </Menu.Item>
                ))}
              </>
            )}
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => void logout()}>
              Sign out
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
