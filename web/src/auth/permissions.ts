/** Permission that reveals and gates the admin screens (spec section 6). */
export const ADMIN_VIEW = 'admin:view';

/**
 * Spec section 5: a check requires every listed permission to be held, and the list must be an
 * array (anything else is refused rather than guessed at).
 */
export function hasPermissions(held: readonly string[], required: readonly string[]): boolean {
  if (!Array.isArray(required) || !Array.isArray(held)) return false;
  return required.every((permission) => held.includes(permission));
}
