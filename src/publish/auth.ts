// @module The publish API's bearer token: the PUBLISH_TOKEN secret, compared in constant time; read API keys never grant it.
import { ApiError } from "../contract/errors.ts";
import { constantTimeEqual, sha256 } from "../digests.ts";

/**
 * Throws unless `authorization` is `Bearer <PUBLISH_TOKEN>`: 403 when no token is configured
 * (publishing disabled), 401 when it is missing or wrong. Digests are compared, so neither the
 * token's length nor where it differs shows in the timing.
 */
export async function requirePublishToken(
  configured: string | undefined,
  authorization: string | undefined,
): Promise<void> {
  if (!configured)
    throw new ApiError(
      "publishing_disabled",
      "publishing is disabled on this server: set the Workers secret PUBLISH_TOKEN (locally: .dev.vars or --var PUBLISH_TOKEN:<value>)",
    );
  const presented = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1].trim();
  const challenge = { headers: { "WWW-Authenticate": 'Bearer realm="appstruct publish"' } };
  if (!presented)
    throw new ApiError(
      "unauthorized",
      "publishing needs the token: send Authorization: Bearer <PUBLISH_TOKEN>",
      challenge,
    );
  if (!constantTimeEqual(await sha256(presented), await sha256(configured)))
    throw new ApiError("unauthorized", "the publish token is not valid", challenge);
}
