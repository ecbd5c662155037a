/** Accounts (spec section 3): the caller's own account and its profile. */
import { z } from 'zod';

/** An account as `GET /api/accounts/me` returns it. `id` is the token's `sub`. */
export interface Account {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  onboarded: boolean;
}

/** `POST /api/accounts/onboard` body. */
export const onboardRequestSchema = z.object({
  firstName: z.string().trim().min(1, 'First name is required'),
  lastName: z.string().trim().min(1, 'Last name is required'),
});
export type OnboardRequest = z.infer<typeof onboardRequestSchema>;

/**
 * `PUT /api/accounts/update?firstName=&lastName=`: the caller's names (each optional; a name that is
 * given must not be blank). Answers the updated `Account`.
 */
export const updateAccountQuerySchema = z.object({
  firstName: z.string().trim().min(1, 'First name is required').max(200).optional(),
  lastName: z.string().trim().min(1, 'Last name is required').max(200).optional(),
});

/** `GET /api/accounts/exists/{value}`: whether an account has this id or email. */
export interface AccountExists {
  exists: boolean;
}

/** `GET /api/accounts/{id}/onboarded`. */
export interface AccountOnboarded {
  onboarded: boolean;
}
