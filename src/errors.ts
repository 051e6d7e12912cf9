/**
 * The error table (CONTRACT.md §7): every error the service answers is a ServiceError made here.
 * Bindings map `faultClass` / `httpStatus` to their own fault or error form; no stack, path or SQL
 * is ever part of `message`.
 */

export type FaultClass = 'Client' | 'Server';

interface ErrorSpec {
  readonly faultClass: FaultClass;
  /** Status for transports that have their own (JSON/AJAX, auth). SOAP faults and GET/POST errors are 500 (golden). */
  readonly httpStatus: number;
  readonly description: string;
}

export const ERRORS = {
  // CONTRACT.md §7
  InvalidJson: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'StringOfJSONParameters is not a JSON object, or is nested too deeply.',
  },
  MissingParameter: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'A required parameter or JSON member is missing or empty.',
  },
  UnknownMember: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'The JSON parameters hold a member the operation does not know.',
  },
  UnknownDatabase: {
    faultClass: 'Client',
    httpStatus: 404,
    description: 'DBName names no configured database.',
  },
  UnknownField: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'A field name is not in the field schema, or the field cannot be used that way.',
  },
  InvalidFilter: {
    faultClass: 'Client',
    httpStatus: 400,
    description:
      'A filter has an operator its field does not allow, or the wrong number of values.',
  },
  InvalidValue: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'A value has the wrong type, format or range.',
  },
  UnsupportedAsType: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'AsType is not JSON, XML or InternalUse.',
  },
  UnknownRequest: {
    faultClass: 'Client',
    httpStatus: 400,
    description: 'ProcessRequest / GetRequestSupport named a Request that does not exist.',
  },
  ValidationFailed: {
    faultClass: 'Client',
    httpStatus: 422,
    description: 'Records or a file did not pass validation; nothing was changed.',
  },
  // Also the per-request time budget (src/security/deadline.ts): the work asked for is too large for one request.
  PayloadTooLarge: {
    faultClass: 'Client',
    httpStatus: 413,
    description:
      'The request body or a value is over its size limit, or the work it asks for ran over the per-request time budget (limits.requestMs); nothing was changed.',
  },
  Unauthorized: {
    faultClass: 'Client',
    httpStatus: 401,
    description: 'Credentials are missing or wrong.',
  },
  Forbidden: {
    faultClass: 'Client',
    httpStatus: 403,
    description: 'The API key lacks the scope or database.',
  },
  TooManyRequests: {
    faultClass: 'Client',
    httpStatus: 429,
    description:
      'The API key (or, on a server without keys, the client address) is over its rate limit; retry after Retry-After seconds.',
  },
  Internal: {
    faultClass: 'Server',
    httpStatus: 500,
    description: 'The service failed; the request may be retried.',
  },
  // Also HTTP GET/POST and JSON answer it 503 (docs/DEPLOYMENT.md "When the database is away").
  Unavailable: {
    faultClass: 'Server',
    httpStatus: 503,
    description:
      'The database cannot be reached now (PostgreSQL restarting, failing over or cut off; a SQLite file locked by another writer past the time budget), or is still loading after the server started (Retry-After says when to try again). A write answered so was not applied — except one whose connection dropped during its commit, which says it may have been; retry later.',
  },
  // Wire-level errors (golden/ routing and format cases), stable codes of our own.
  UnknownOperation: {
    faultClass: 'Client',
    httpStatus: 500,
    description: 'The SOAP action, body element or URL names no operation.',
  },
  ActionMismatch: {
    faultClass: 'Client',
    httpStatus: 500,
    description: 'The SOAP action names one operation and the body holds another.',
  },
  InvalidRequestFormat: {
    faultClass: 'Client',
    httpStatus: 500,
    description:
      'The request body is not in a format the binding reads, or a SOAP envelope holds two Bodies, two operation elements or a parameter twice.',
  },
  InvalidXml: {
    faultClass: 'Client',
    httpStatus: 400,
    description:
      'The XML is malformed, declares a DTD or entities, or is nested deeper than 64 elements.',
  },
  MustUnderstand: {
    faultClass: 'Client',
    httpStatus: 500,
    description: 'A SOAP header marked mustUnderstand is not understood.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorLocation {
  /** The wire parameter at fault: StringOfJSONParameters, DBName, AsType, or a header. */
  parameter?: string;
  /** JSON path inside StringOfJSONParameters, e.g. `$.Filters[0].Op`. */
  path?: string;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly parameter?: string;
  readonly path?: string;
  /** Per-row details (imports): line, field, reason. */
  readonly details?: readonly RowError[];

  constructor(
    code: ErrorCode,
    message: string,
    where: ErrorLocation = {},
    details?: readonly RowError[],
  ) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.parameter = where.parameter;
    this.path = where.path;
    this.details = details;
  }

  get faultClass(): FaultClass {
    return ERRORS[this.code].faultClass;
  }

  get httpStatus(): number {
    return ERRORS[this.code].httpStatus;
  }
}

export interface RowError {
  line: number;
  field?: string;
  reason: string;
}

/** The one factory: `fail('UnknownField', 'Field "Citty" is not …', { parameter: 'StringOfJSONParameters', path: '$.Field' })`. */
export function fail(
  code: ErrorCode,
  message: string,
  where?: ErrorLocation,
  details?: readonly RowError[],
): ServiceError {
  return new ServiceError(code, message, where, details);
}

/** Anything thrown that is not a ServiceError becomes Internal, with a message that leaks nothing. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError(
    'Internal',
    'The service could not complete the request; it has been logged.',
  );
}

/** JSON path helper: pathOf('$', 'Filters', 0, 'Op') → `$.Filters[0].Op`. */
export function pathOf(...parts: (string | number)[]): string {
  // A loop, not map and join: every member of every request's JSON is read with its path.
  let s = String(parts[0]);
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i];
    s += typeof p === 'number' ? `[${p}]` : `.${p}`;
  }
  return s;
}
