// The one error a route throws: a status, a code and words, answered as `{error: {code, message}}` by http.ts.

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Readonly<Record<string, unknown>>;
  constructor(status: number, code: string, message: string, extra: Readonly<Record<string, unknown>> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}
