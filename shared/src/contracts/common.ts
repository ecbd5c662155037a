/** Shapes every part of the HTTP contract uses: the error body, the public configuration, a page of a list. */
/** Every error answer: `{ error, code }`; `error` is a sentence a person can act on. */
export interface ErrorBody {
  error: string;
  code: string;
}

/** `GET /api/config`: what the SPA needs to sign in, read at run time so one build serves any deployment. */
export interface PublicConfig {
  /** Display name of the product. */
  productName: string;
  oidc: {
    /** Issuer URL (discovery at `${issuer}/.well-known/openid-configuration`). */
    issuer: string;
    clientId: string;
    /**
     * Required `aud` of access tokens. Send it to the provider as the `audience` parameter, and as
     * `resource` (RFC 8707) only when it is an absolute URI (`https://…`, `urn:…`): providers reject
     * a non-URI resource, and the dev IdP maps requests without one to this audience.
     */
    audience: string;
    scope: string;
  };
  /** Access-token claim holding the permission list. */
  permissionsClaim: string;
}

/** A page of a list (spec section 3, paged account list): `content` and `totalElements`. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  /** Zero-based. */
  page: number;
  size: number;
}
