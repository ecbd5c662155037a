/**
 * Component tests (vitest + Testing Library, in jsdom): `renderUi` renders inside the app's Mantine
 * theme with the toasts container, as App does, in Mantine's test environment. Files using it start with
 * `// @vitest-environment jsdom`.
 */
import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { cleanup, render } from '@testing-library/react';
import { afterEach } from 'vitest';
import { theme } from '../theme';

// What jsdom lacks and Mantine uses: media queries, element size observers, scrolling into view.
const win = globalThis as unknown as Record<string, unknown>;
win.matchMedia ??= (query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addEventListener: () => {},
  removeEventListener: () => {},
  addListener: () => {},
  removeListener: () => {},
  dispatchEvent: () => false,
});
win.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
const proto = (globalThis as unknown as { Element: { prototype: Record<string, unknown> } }).Element
  .prototype;
proto.scrollIntoView ??= () => {};

afterEach(() => cleanup());

export function renderUi(ui: ReactElement) {
  // A wrapper (not part of `ui`), so `rerender` keeps the theme and the toasts container.
  return render(ui, { wrapper: TestProviders });
}

function TestProviders({ children }: { children: ReactNode }) {
  return (
    // No transitions (a modal closing over a few hundred ms left its inputs in the document for an
    // assertion made right after the click, on a busy machine) and no portals, as Mantine advises.
    <MantineProvider theme={theme} env="test">
      <Notifications />
      {children}
    </MantineProvider>
  );
}
