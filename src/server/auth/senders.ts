import type { FastifyBaseLogger } from "fastify";
import type nodemailerModule from "nodemailer";
import type { Queryable } from "../db/index.ts";
import { insertOutboxMessages } from "./repository.ts";
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

/**
 * What sending some messages came to: handed to a mail server or SMS provider (`sent`), or only
 * written to the outbox table because none is set (`kept`: nothing left the server).
 */
export interface Delivery {
  sent: number;
  kept: number;
}

export const addDeliveries = (a: Delivery, b: Delivery): Delivery => ({ sent: a.sent + b.sent, kept: a.kept + b.kept });

/** The outside edge: how messages leave the system. */
export interface MessageSender {
  readonly name: string;
  /** Sends the message; answers "outbox" when it was only kept in the outbox table (no provider for it). */
  send(message: OutgoingMessage): Promise<void | "outbox">;
  /**
   * Many messages at once, when the sender can do better than one by one (the table sender
   * writes them in a few statements); `sendEach` falls back to `send` for each.
   */
  sendMany?(messages: readonly OutgoingMessage[], onError: (message: OutgoingMessage, error: unknown) => void): Promise<Delivery>;
}

/** Sends each message (a failure of one does not stop the others); answers how many were sent, and how many only kept in the outbox. */
export async function sendEach(sender: MessageSender, messages: readonly OutgoingMessage[], onError: (message: OutgoingMessage, error: unknown) => void): Promise<Delivery> {
  const done: Delivery = { sent: 0, kept: 0 };
  if (messages.length === 0) return done;
  if (sender.sendMany) return sender.sendMany(messages, onError);
  for (const message of messages) {
    try {
      if ((await sender.send(message)) === "outbox") done.kept++;
      else done.sent++;
    } catch (error) {
      onError(message, error);
    }
  }
  return done;
}

const logged = (message: OutgoingMessage) => (message.secret ? "(not logged: it holds a secret link)" : message.body);

/** Browser tests only: told every message the table sender keeps (main.ts, E2E_OUTBOX_FILE). */
let outboxObserver: ((message: OutgoingMessage) => void) | null = null;

/**
 * Browser tests only (never set in production): `observer` is told each message the table sender
 * writes to the outbox, secret links included, so a test can open an invitation from the outbox
 * while the server holds its embedded database.
 */
export function setOutboxObserver(observer: ((message: OutgoingMessage) => void) | null): void {
  outboxObserver = observer;
}

/**
 * The default sender (no provider configured): the message is written to the outbox_message
 * table and to the log, so the demo works without a provider.
 */
export function tableSender(db: Queryable, log: FastifyBaseLogger): MessageSender {
  return {
    name: "table",
    async send(message) {
      await insertOutboxMessages(db, [message]);
      outboxObserver?.(message);
      log.info({ channel: message.channel, target: message.target, subject: message.subject, body: logged(message) }, "message written to the outbox (no provider configured)");
      return "outbox";
    },
    async sendMany(messages) {
      await insertOutboxMessages(db, messages);
      if (outboxObserver) messages.forEach(outboxObserver);
      // One line for the lot (thousands of lines would only slow the import and fill the log).
      const first = messages[0];
      if (first) log.info({ channel: first.channel, count: messages.length, subject: first.subject, body: logged(first) }, "messages written to the outbox (no provider configured)");
      return { sent: 0, kept: messages.length };
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
