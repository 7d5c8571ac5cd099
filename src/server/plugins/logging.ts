import type { FastifyRequest } from "fastify";
import type { LoggerOptions } from "pino";

const SECRET_QUERY_KEY = /token|password|secret|captcha|code|ticket/i;

/** Query values that look like secrets are masked before a URL reaches a log line. */
export function redactUrlQuery(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY_KEY.test(key)) params.set(key, "[redacted]");
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}

/**
 * Request logging without secrets: only method, URL (secret-looking query values masked),
 * remote address and status are logged; token, cookie and authorization headers are redacted
 * should anything log headers, and bodies are never logged.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        "req.headers.batoken",
        'req.headers["ba-user-token"]',
        "req.headers.authorization",
        "req.headers.cookie",
        'res.headers["set-cookie"]',
      ],
      censor: "[redacted]",
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrlQuery(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
