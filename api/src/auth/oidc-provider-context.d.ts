/**
 * oidc-provider's request context: the AsyncLocalStorage its Koa app runs every request in
 * (lib/helpers/als.js, a module of its own that the package does not type). See
 * releasingRequestContext in dev-idp.ts.
 */
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';
  const requestContext: AsyncLocalStorage<unknown>;
  export default requestContext;
}
