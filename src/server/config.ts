import path from "node:path";
import { z } from "zod";
import { DEFAULT_PORT } from "../shared/constants.ts";
import { StartupError } from "./errors.ts";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .transform((v) => v === "1" || v === "true");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATA_DIR: z.string().min(1).default("./data"),
  SEED_DEMO: flag.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BODY_LIMIT: z.coerce.number().int().positive().default(1024 * 1024),
  CLIENT_DIR: z.string().optional(),
  TRUST_PROXY: flag.default(false),
  ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(3 * 86_400),
  REFRESH_TOKEN_TTL: z.coerce.number().int().positive().default(30 * 86_400),
  SITE_NAME: z.string().default("ExamHub"),
  SITE_CONTACT: z
    .string()
    .trim()
    .refine((v) => v === "" || contactUrl(v) !== undefined, "must be an email address or an http(s) URL")
    .optional(),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  LOGIN_ADDRESS_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().positive().default(86_400),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: flag.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  SMTP_FROM: z.string().optional(),
  TERMINAL_TIMEOUT: z.coerce.number().int().positive().max(86_400).default(15 * 60),
  MODULES_DIR: z.string().optional(),
  STORAGE: z.enum(["local", "s3"]).default("local"),
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/@]+(?::\d+)?\/?$/, "must be an http(s) URL of the S3 server, without a path or credentials (e.g. https://s3.example.com)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be an S3 bucket name (3-63 lowercase letters, digits, dots and hyphens)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  S3_PREFIX: z
    .string()
    .regex(/^(?:[A-Za-z0-9_-]+\/)*$/, "must be a key prefix ending in / (e.g. examhub/), or empty")
    .default(""),
});

/** Where uploads are kept when STORAGE=s3 (modules/upload/s3.ts). */
export interface S3StorageConfig {
  /** Absent: AWS's own endpoint for the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both absent: the AWS SDK's default credential chain (AWS_* variables, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style URLs (http://host/bucket/key): most S3-compatible servers want it. */
  forcePathStyle: boolean;
  /** Prepended to every object key ("" or "folder/"). */
  prefix: string;
}

export interface AppConfig {
  port: number;
  host: string;
  /** Absent: the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  /** Connections this process keeps to PostgreSQL at most (DATABASE_URL only). */
  databasePoolSize?: number;
  dataDir: string;
  /** Seed the demo accounts and content into an empty database. */
  seedDemo: boolean;
  logLevel: string;
  /** Largest accepted JSON body, in bytes. */
  bodyLimit: number;
  /** The built client (index.html, assets, sw.js); absent: API only. */
  clientDir: string | undefined;
  trustProxy: boolean;
  /** Token lifetimes in seconds (API.md: access 3 days, refresh 30 days). */
  tokenTtl: { access: number; refresh: number };
  siteName: string;
  /** Where members reach the site's administrator: a `mailto:` or http(s) URL; absent or "" when unset. */
  siteContactUrl?: string;
  /** Login attempts a minute per account from one client address (admin and member login each). */
  loginRateLimit: number;
  /** Login attempts a minute per client address over every account (a hall behind one NAT address). */
  loginAddressRateLimit: number;
  /** How long 10 failed logins in a row lock an account, seconds. */
  loginLockSeconds: number;
  /** Email through this SMTP server; absent: messages go to the outbox table and the log. */
  smtp?: { host: string; port: number; secure: boolean; user?: string; pass?: string; from: string };
  /** The folder the terminal's commands run in (the one holding package.json); default: the working folder. */
  projectDir?: string;
  /** How to start this server's entry again (the terminal's `migrate.run` adds `--migrate`); absent: no migrate.run. */
  serverEntry?: { program: string; args: string[] };
  /** The terminal's time limit per command, seconds (default 15 minutes). */
  terminalTimeoutSeconds?: number;
  /** The module market's catalogue folder (one folder per module, each with its manifest.json); default DATA_DIR/modules. */
  modulesDir?: string;
  /** Uploads in an S3-compatible object store (STORAGE=s3); absent: the folder DATA_DIR/storage. */
  s3?: S3StorageConfig;
  /** Embedded database in memory (tests); never set from the environment. */
  inMemory?: boolean;
}

/** `admin@example.com` -> `mailto:admin@example.com`; an http(s) URL as it is; anything else undefined. */
export function contactUrl(value: string): string | undefined {
  if (z.email().safeParse(value).success) return `mailto:${value}`;
  if (/^https?:\/\//i.test(value) && z.url({ protocol: /^https?$/ }).safeParse(value).success) return value;
  return undefined;
}

/** Reads and validates the environment once; a bad value stops start-up with one clear line. */
export function loadConfig(
  env: Record<string, string | undefined>,
  defaults: { clientDir?: string; projectDir?: string; serverEntry?: { program: string; args: string[] } } = {},
): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StartupError(`Invalid ${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  const s3 = e.STORAGE === "s3" ? s3Config(e) : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.DATA_DIR),
    // Demo data on the embedded default; on PostgreSQL only when asked for (SEED_DEMO=1).
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    bodyLimit: e.BODY_LIMIT,
    clientDir: e.CLIENT_DIR ? path.resolve(e.CLIENT_DIR) : defaults.clientDir,
    ...(defaults.projectDir ? { projectDir: defaults.projectDir } : {}),
    ...(defaults.serverEntry ? { serverEntry: defaults.serverEntry } : {}),
    trustProxy: e.TRUST_PROXY,
    tokenTtl: { access: e.ACCESS_TOKEN_TTL, refresh: e.REFRESH_TOKEN_TTL },
    siteName: e.SITE_NAME,
    siteContactUrl: e.SITE_CONTACT ? (contactUrl(e.SITE_CONTACT) ?? "") : "",
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    loginAddressRateLimit: e.LOGIN_ADDRESS_RATE_LIMIT,
    loginLockSeconds: e.LOGIN_LOCK_SECONDS,
    terminalTimeoutSeconds: e.TERMINAL_TIMEOUT,
    ...(e.MODULES_DIR ? { modulesDir: path.resolve(e.MODULES_DIR) } : {}),
    ...(s3 ? { s3 } : {}),
    ...(e.SMTP_HOST
      ? {
          smtp: {
            host: e.SMTP_HOST,
            port: e.SMTP_PORT,
            secure: e.SMTP_SECURE,
            ...(e.SMTP_USER ? { user: e.SMTP_USER } : {}),
            ...(e.SMTP_PASS ? { pass: e.SMTP_PASS } : {}),
            from: e.SMTP_FROM ?? e.SMTP_USER ?? `no-reply@${e.SMTP_HOST}`,
          },
        }
      : {}),
  };
}

/** STORAGE=s3: the bucket is required, the key id and secret come both or not at all. */
function s3Config(e: z.output<typeof envSchema>): S3StorageConfig {
  if (!e.S3_BUCKET) throw new StartupError("Invalid S3_BUCKET: STORAGE=s3 needs the bucket's name in S3_BUCKET");
  const id = e.S3_ACCESS_KEY_ID?.trim() ?? "";
  const secret = e.S3_SECRET_ACCESS_KEY ?? "";
  if ((id === "") !== (secret === "")) throw new StartupError("Invalid S3_ACCESS_KEY_ID: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together (or neither, for the AWS SDK's default credentials)");
  return {
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT.replace(/\/$/, "") } : {}),
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    ...(id ? { credentials: { accessKeyId: id, secretAccessKey: secret } } : {}),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX,
  };
}

/** postgres://user:secret@host/db -> postgres://user:***@host/db, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
