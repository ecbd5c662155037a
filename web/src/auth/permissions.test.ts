import { describe, expect, it } from 'vitest';
import { ADMIN_VIEW, hasPermissions } from './permissions';

describe('hasPermissions', () => {
  it('requires every listed permission', () => {
    expect(hasPermissions([ADMIN_VIEW, 'x'], [ADMIN_VIEW])).toBe(true);
    expect(hasPermissions([ADMIN_VIEW], [ADMIN_VIEW, 'x'])).toBe(false);
    expect(hasPermissions([], [ADMIN_VIEW])).toBe(false);
    expect(hasPermissions([], [])).toBe(true);
  });

  it('refuses a required list that is not an array', () => {
    expect(hasPermissions([ADMIN_VIEW], ADMIN_VIEW as unknown as string[])).toBe(false);
  });
});
