// @module The one error formatter: any thrown value to an RFC 9457-shaped JSON response (docs/api.md#errors).
import { HTTPException } from "hono/http-exception";
import { ApiError, StorageUnavailableError } from "../contract/errors.ts";
import { CorruptSnapshotError } from "../format/errors.ts";

/** Maps what a route threw to the ApiError it answers with; unknown failures become internal_error. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StorageUnavailableError)
    return new ApiError("storage_unavailable", "the snapshot storage could not be read; try again shortly");
  if (error instanceof CorruptSnapshotError)
    return new ApiError("corrupt_snapshot", `the published snapshot cannot be read: ${error.message}`);
  if (error instanceof HTTPException && error.status === 404) return new ApiError("route_not_found", "no such route");
  return new ApiError("internal_error", "the server failed to answer this request");
}

export function problemResponse(error: ApiError): Response {
  return new Response(JSON.stringify(error.toBody()), {
    status: error.status,
    headers: { "Content-Type": "application/json", ...error.headers },
  });
}
