// @module ApiError: every failure the API reports, with its status and code from docs/api.md#error-codes (framework-free).

export const ERROR_TITLES = {
  missing_parameter: [400, "Missing parameter"],
  invalid_parameter: [400, "Invalid parameter"],
  unknown_parameter: [400, "Unknown parameter"],
  invalid_application_name: [400, "Invalid application name"],
  unsupported_level: [400, "Unsupported level"],
  unauthorized: [401, "Unauthorized"],
  forbidden: [403, "Forbidden"],
  application_not_found: [404, "Application not found"],
  object_not_found: [404, "Object not found"],
  no_analysis_at_date: [404, "No analysis at date"],
  transaction_not_found: [404, "Transaction not found"],
  data_graph_not_found: [404, "Data graph not found"],
  file_not_found: [404, "File not found"],
  route_not_found: [404, "Route not found"],
  method_not_allowed: [405, "Method not allowed"],
  rate_limited: [429, "Too many requests"],
  source_service_unavailable: [500, "Source code service unavailable"],
  corrupt_snapshot: [500, "Corrupt snapshot"],
  internal_error: [500, "Internal error"],
  storage_unavailable: [503, "Storage unavailable"],
} as const;

/** The read API's codes (docs/api.md#error-codes, and the OpenAPI document). */
export type ErrorCode = keyof typeof ERROR_TITLES;

/** Codes of the publish API (/publish) only: outside the read API's contract. */
export const PUBLISH_ERROR_TITLES = {
  publishing_disabled: [403, "Publishing disabled"],
  upload_not_found: [404, "Upload not found"],
  upload_incomplete: [409, "Upload incomplete"],
  payload_too_large: [413, "Payload too large"],
  upload_refused: [422, "Upload refused"],
} as const;

export type AnyErrorCode = ErrorCode | keyof typeof PUBLISH_ERROR_TITLES;

const TITLES: Record<AnyErrorCode, readonly [number, string]> = { ...ERROR_TITLES, ...PUBLISH_ERROR_TITLES };

/** The RFC 9457-shaped body of every error response (described to clients by ProblemSchema in api-schemas.ts, which must match it). */
export interface ProblemBody {
  status: number;
  title: string;
  code: ErrorCode;
  detail: string;
  parameter?: string;
}

export class ApiError extends Error {
  readonly code: AnyErrorCode;
  readonly status: number;
  readonly parameter: string | undefined;
  /** Extra response headers (Allow on 405, WWW-Authenticate on 401). */
  readonly headers: Record<string, string>;

  constructor(
    code: AnyErrorCode,
    detail: string,
    options: { parameter?: string; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.code = code;
    this.status = TITLES[code][0];
    this.parameter = options.parameter;
    this.headers = options.headers ?? {};
  }

  toBody(): ProblemBody {
    // ProblemBody types the read API's codes; the publish API's own go out in the same shape.
    const body: ProblemBody = {
      status: this.status,
      title: TITLES[this.code][1],
      code: this.code as ErrorCode,
      detail: this.message,
    };
    if (this.parameter !== undefined) body.parameter = this.parameter;
    return body;
  }
}

/** Storage could not be read (R2 error, missing object, ETag changed under a read). */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
}
