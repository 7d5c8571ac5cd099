import type { FastifyBaseLogger } from "fastify";
import type nodemailerModule from "nodemailer";
import type { Queryable } from "../db/index.ts";
import { insertOutboxMessage } from "./repository.ts";
import { lazyRequire } from "../lazy.ts";

const nodemailer = lazyRequire<typeof nodemailerModule>("nodemailer");

/** A message to a person: an email, or a text message to a mobile number. */
export interface OutgoingMessage {
  channel: "email" | "mobile";
  target: string;
  subject: string;
  body: string;
  /** The body holds a secret (an invitation link): kept out of the server log. */
  secret?: boolean;
}

/** The outside edge: how messages leave the system. */
export interface MessageSender {
  readonly name: string;
  /** Sends the message; answers "outbox" when it was only kept in the outbox table (no provider for it). */
  send(message: OutgoingMessage): Promise<void | "outbox">;
}

/**
 * The default sender (no provider configured): the message is written to the outbox_message
 * table and to the log, so the demo works without a provider.
 */
export function tableSender(db: Queryable, log: FastifyBaseLogger): MessageSender {
  return {
    name: "table",
    async send(message) {
      await insertOutboxMessage(db, message);
      const body = message.secret ? "(not logged: it holds a secret link)" : message.body;
      log.info({ channel: message.channel, target: message.target, subject: message.subject, body }, "message written to the outbox (no provider configured)");
      return "outbox";
    },
  };
}

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
}

/** Email through an SMTP server (nodemailer); text messages still go to the table sender. */
export function smtpSender(smtp: SmtpSettings, fallback: MessageSender): MessageSender {
  const transport = nodemailer().createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? "" } } : {}),
  });
  return {
    name: "smtp",
    async send(message) {
      if (message.channel !== "email") return fallback.send(message);
      await transport.sendMail({ from: smtp.from, to: message.target, subject: message.subject, text: message.body });
    },
  };
}
