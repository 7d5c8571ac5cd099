import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { msg, plural } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { ApiCode, HEADER_LANGUAGE, resolveLanguage, type Language } from "../../shared/constants.ts";
import { unixSeconds, type Envelope } from "../../shared/envelope.ts";
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
import { fieldMessage, hasUnsafeText } from "../../shared/schema.ts";
import { classifyDbError, loggableError, pgState } from "../db/errors.ts";
import { ApiError } from "../errors.ts";
import { translator, type Translate } from "../i18n/index.ts";

declare module "fastify" {
  interface FastifyRequest {
    lang: Language;
    t: Translate;
  }
  interface FastifyReply {
    /** 200 `{code: 1, msg, time, data}`. */
    success<T>(data?: T, message?: MessageDescriptor | string): FastifyReply;
    /** 200 `{code, msg, time, data}` for a business failure (code 0 unless given). */
    fail(message: MessageDescriptor | string, code?: number, data?: unknown): FastifyReply;
  }
  interface FastifyContextConfig {
    /**
     * The route judges NUL and unpaired surrogates in its input itself, item by item
     * (`POST /api/exam/sync`: one bad op is rejected, the rest applied); every other route has
     * such input refused as a whole before its handler runs.
     */
    judgesTextPerItem?: boolean;
  }
}

export function envelope<T>(code: number, message: string, data: T): Envelope<T> {
  return { code, msg: message, time: unixSeconds(), data };
}

/** Transport-level failures: their HTTP status and a message a person can act on. */
function transportMessage(error: FastifyError, status: number, bodyLimit: number): MessageDescriptor {
  if (status === 413) return msg`The request body is too large (at most ${plural(bodyLimit, { one: "# byte", other: "# bytes" })})`;
  if (status === 415) return msg`Unsupported content type`;
  if (status === 429) return msg`Too many requests, please try again later`;
  if (
    error instanceof SyntaxError ||
    error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
    error.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
  ) {
    return msg`The request body is not valid JSON`;
  }
  if (error.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") return msg`Invalid Content-Length header`;
  return msg`Incorrect parameter!`;
}

type ValidationFailure = Omit<FastifyError, "validation"> & { validation: { instancePath: string }[]; validationContext?: string };

/**
 * The message for a request its route's schema refused: the refused field's own message
 * (`withMessage` in src/shared/schema.ts, the deepest on its path), else "Incorrect parameter!";
 * for a refused body of a back-office route also every refused top-level field with its message
 * (`data.fields`), which the back-office forms show beside each field.
 */
function validationFailure(error: ValidationFailure, req: FastifyRequest): { message: MessageDescriptor; fields: Record<string, string> | null } {
  const part = error.validationContext;
  const schema = part ? ((req.routeOptions.schema as Record<string, unknown> | undefined)?.[part] as z.ZodType | undefined) : undefined;
  const messageAt = (pointer: string): MessageDescriptor | null => (schema ? fieldMessage(schema, pointer.split("/").slice(1)) : null);
  const message = messageAt(error.validation[0]?.instancePath ?? "") ?? msg`Incorrect parameter!`;
  if (part !== "body" || !req.url.startsWith("/admin/")) return { message, fields: null };
  const fields: Record<string, string> = {};
  for (const issue of error.validation.slice(0, 50)) {
    const field = issue.instancePath.split("/")[1];
    if (!field || Object.hasOwn(fields, field) || !/^[A-Za-z0-9_]{1,64}$/.test(field)) continue;
    fields[field] = req.t(messageAt(issue.instancePath) ?? msg`Incorrect parameter!`);
  }
  return { message, fields: Object.keys(fields).length > 0 ? fields : null };
}

/** 404 for an unknown API path. */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = req.url.split("?")[0] ?? "/";
  return reply.code(404).send(envelope(ApiCode.FAIL, req.t(msg`The API endpoint ${path} does not exist`), null));
}

/**
 * Fastify's own refusals before routing (`frameworkErrors`: a URL that is not valid
 * percent-encoded UTF-8, e.g. `/storage/%ED%A0%80`): HTTP 400 in the envelope.
 */
export function frameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const t = translator(resolveLanguage(req.headers[HEADER_LANGUAGE]));
  req.log.info({ err: { code: error.code } }, "request rejected");
  void reply.code(400).send(envelope(ApiCode.FAIL, t(msg`Incorrect parameter!`), null));
}

/**
 * Route validation (zod schemas through fastify-type-provider-zod) answers the same way: code 0
 * with the refused field's message, HTTP 200.
 *
 * The envelope and status rules of API.md: business outcomes are HTTP 200 with a body code;
 * transport failures keep their status; anything unexpected is a logged 500 with a generic
 * message and never a stack trace.
 *
 * Hostile values are refused as a class, whatever a route's own schema says: a NUL or an
 * unpaired surrogate anywhere in the query, body or path parameters answers code 0 "Incorrect
 * parameter!" before the handler runs (PostgreSQL can store neither), and a value PostgreSQL
 * refuses anyway (a number out of range, bad syntax: SQLSTATE class 22, 54000, 23514) answers
 * the same instead of 500. An unreachable or overloaded database answers 503 (try again later).
 */
export const envelopePlugin = fp(
  async (app: FastifyInstance, opts: { bodyLimit: number }) => {
    // Route schemas are zod schemas (src/shared/schema.ts building blocks): routes declare
    // `schema: { querystring, body, params }` and get typed, coerced values.
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorateRequest("lang", "zh-cn");
    app.decorateRequest("t", function (this: FastifyRequest, m: MessageDescriptor | string) {
      return typeof m === "string" ? m : m.message ?? m.id;
    } as Translate);
    app.addHook("onRequest", async (req) => {
      req.lang = resolveLanguage(req.headers[HEADER_LANGUAGE]);
      req.t = translator(req.lang);
    });
    app.addHook("preValidation", async (req) => {
      if (req.is404 || req.routeOptions.config?.judgesTextPerItem) return;
      if (hasUnsafeText(req.query) || hasUnsafeText(req.params) || hasUnsafeText(req.body)) {
        req.log.info({ route: req.routeOptions.url }, "request refused: NUL or unpaired surrogate in its input");
        throw new ApiError(msg`Incorrect parameter!`);
      }
    });

    app.decorateReply("success", function (this: FastifyReply, data?: unknown, message?: MessageDescriptor | string) {
      const text = message === undefined ? "" : this.request.t(message);
      return this.code(200).send(envelope(ApiCode.SUCCESS, text, data ?? null));
    });
    app.decorateReply("fail", function (this: FastifyReply, message: MessageDescriptor | string, code = 0, data: unknown = null) {
      return this.code(200).send(envelope(code, this.request.t(message), data));
    });

    app.setErrorHandler((error: FastifyError, req, reply) => {
      if (error instanceof ApiError) {
        return reply.fail(error.msgDescriptor, error.code, error.data);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        // A refused value is a business failure like any other: code 0 with the field's message.
        req.log.info({ route: req.routeOptions.url, part: error.validationContext, path: error.validation[0]?.instancePath }, "request refused by its schema");
        const { message, fields } = validationFailure(error, req);
        return reply.fail(message, 0, fields ? { fields } : null);
      }
      const status = typeof error.statusCode === "number" ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        req.log.info({ err: { code: error.code, message: error.message }, status }, "request rejected");
        return reply
          .code(status)
          .send(envelope(ApiCode.FAIL, req.t(transportMessage(error, status, opts.bodyLimit)), null));
      }
      const db = classifyDbError(error);
      if (db === "invalid-input") {
        // The values are not logged: PostgreSQL's message quotes them.
        req.log.warn({ route: req.routeOptions.url, db: loggableError(error) }, "database refused a value");
        return reply.fail(msg`Incorrect parameter!`);
      }
      if (db === "unavailable") {
        req.log.error({ route: req.routeOptions.url, db: loggableError(error) }, "database unavailable");
        return reply.code(503).send(envelope(ApiCode.FAIL, req.t(msg`The service is busy, please try again later`), null));
      }
      // A database error's own message and detail may quote request values: log its SQLSTATE only.
      req.log.error(pgState(error) ? { route: req.routeOptions.url, db: loggableError(error) } : { err: error }, "unhandled error");
      return reply.code(500).send(envelope(ApiCode.FAIL, req.t(msg`Server internal error!`), null));
    });

  },
  { name: "envelope" },
);
