import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3StorageConfig } from "../../config.ts";
import { extensionOf } from "./sniff.ts";
import { filesUnder, keyOf, type FileStore } from "./store.ts";

/**
 * Uploads in an S3-compatible object store (STORAGE=s3; AWS S3, MinIO, Ceph, R2... — tested
 * against the s3rver emulator, tests/server/storage-s3.test.ts): one object per file under
 * `S3_PREFIX` + key, an HLS folder as one object per file with its playlist put last (a folder
 * whose playlist is there is whole). `GET /storage/*` (serving.ts) reads the object through
 * `read`, passing Range and the validators through, so videos still seek (206 + Content-Range).
 *
 * The SDK is loaded on first use (a server on the local folder never loads it). Its errors are
 * turned into one line naming the operation, the error's name and HTTP status: no request,
 * signature or credential ever reaches a log or an answer.
 */

/** Content types of what /storage serves (objects keep theirs; anything else is a download). */
const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  apng: "image/apng",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  avif: "image/avif",
  ico: "image/vnd.microsoft.icon",
  svg: "image/svg+xml",
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  webm: "video/webm",
  ogv: "video/ogg",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  aac: "audio/aac",
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  m4s: "video/iso.segment",
  vtt: "text/vtt; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  json: "application/json",
  pdf: "application/pdf",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

export const contentTypeOf = (file: string): string => CONTENT_TYPES[extensionOf(file)] ?? "application/octet-stream";

/** Files of an HLS folder put at once. */
const PUT_CONCURRENCY = 4;

/** What `GET /storage/*` asks of an object (the request's own headers, checked). */
export interface ObjectRequest {
  head: boolean;
  /** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else is ignored (the whole file). */
  range?: string;
  /** If-Range: the range counts only while the object still has this ETag or date. */
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface ObjectAnswer {
  status: 200 | 206 | 304 | 404 | 416;
  headers: Record<string, string>;
  body?: Readable;
}

/** An S3 call that failed, without anything of the request (no keys, signatures or URLs with them). */
export class S3StoreError extends Error {
  constructor(
    operation: string,
    readonly status: number | undefined,
    readonly s3Code: string,
  ) {
    super(`S3 ${operation} failed: ${s3Code}${status ? ` (HTTP ${status})` : ""}`);
    this.name = "S3StoreError";
  }
}

const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const codeOf = (error: unknown): string => {
  const name = (error as { name?: unknown; Code?: unknown }).Code ?? (error as { name?: unknown }).name;
  return typeof name === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(name) ? name : "Error";
};
const missing = (error: unknown): boolean => statusOf(error) === 404 || ["NoSuchKey", "NotFound"].includes(codeOf(error));
const wrap = (operation: string, error: unknown): S3StoreError => new S3StoreError(operation, statusOf(error), codeOf(error));

type Sdk = typeof S3Sdk;

export class S3Store implements FileStore {
  readonly kind = "s3";
  readonly tempDir: string;
  readonly bucket: string;
  private connection?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(
    private readonly config: S3StorageConfig,
    dataDir: string,
  ) {
    this.bucket = config.bucket;
    // Received files wait on this machine (outside DATA_DIR/storage, which S3 mode never uses).
    this.tempDir = path.join(path.resolve(dataDir), "upload-tmp");
  }

  /** For the start-up line: the bucket and the server, never the credentials. */
  describe(): string {
    return `S3 bucket ${this.bucket}${this.config.prefix ? ` (prefix ${this.config.prefix})` : ""} at ${this.config.endpoint ?? `AWS ${this.config.region}`}`;
  }

  private s3(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.connection ??= (async () => {
      // The pinned SDK runs on Node 20 (later releases will not): its notice would repeat on every start.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
      const sdk = await import("@aws-sdk/client-s3");
      const { endpoint, region, credentials, forcePathStyle } = this.config;
      const client = new sdk.S3Client({
        region,
        ...(endpoint ? { endpoint } : {}),
        ...(credentials ? { credentials } : {}),
        forcePathStyle,
        maxAttempts: 3,
        // Plain requests with Content-Length that every S3-compatible server understands (the
        // SDK's default since 2025 streams uploads with trailing CRC32 checksums).
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      return { sdk, client };
    })();
    this.connection.catch(() => (this.connection = undefined));
    return this.connection;
  }

  /** The object key of a store key. */
  objectKey(key: string): string {
    return `${this.config.prefix}${keyOf(key)}`;
  }

  async has(key: string, marker?: string): Promise<boolean> {
    const { sdk, client } = await this.s3();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(marker === undefined ? key : `${key}/${marker}`) }));
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw wrap("HeadObject", error);
    }
  }

  private async put(from: string, objectKey: string): Promise<void> {
    const { sdk, client } = await this.s3();
    const { size } = await stat(from);
    try {
      await client.send(
        new sdk.PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: createReadStream(from), ContentLength: size, ContentType: contentTypeOf(objectKey) }),
      );
    } catch (error) {
      throw wrap("PutObject", error);
    }
  }

  async putFile(from: string, key: string): Promise<void> {
    await this.put(from, this.objectKey(key));
    await rm(from, { force: true });
  }

  async putFolder(from: string, key: string, marker: string): Promise<void> {
    const files = (await filesUnder(from)).filter((name) => name !== marker);
    try {
      for (let i = 0; i < files.length; i += PUT_CONCURRENCY) {
        await Promise.all(files.slice(i, i + PUT_CONCURRENCY).map((name) => this.put(path.join(from, name), this.objectKey(`${key}/${name}`))));
      }
      // Last: a folder whose playlist is there is whole (has()).
      await this.put(path.join(from, marker), this.objectKey(`${key}/${marker}`));
    } catch (error) {
      await this.remove(key, true).catch(() => undefined);
      throw error;
    }
    await rm(from, { recursive: true, force: true });
  }

  /** Every object under `key/`: its key (without the store prefix) and size. */
  private async list(key: string): Promise<Map<string, number>> {
    const { sdk, client } = await this.s3();
    const prefix = `${this.objectKey(key)}/`;
    const found = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await client
        .send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }))
        .catch((error: unknown) => {
          throw wrap("ListObjectsV2", error);
        });
      for (const object of page.Contents ?? []) if (object.Key) found.set(object.Key.slice(prefix.length), object.Size ?? 0);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async remove(key: string, folder: boolean): Promise<void> {
    const { sdk, client } = await this.s3();
    if (!folder) {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).catch((error: unknown) => {
        if (!missing(error)) throw wrap("DeleteObject", error);
      });
      return;
    }
    const names = [...(await this.list(key)).keys()];
    for (let i = 0; i < names.length; i += 1000) {
      const objects = names.slice(i, i + 1000).map((name) => ({ Key: this.objectKey(`${key}/${name}`) }));
      const result = await client.send(new sdk.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } })).catch((error: unknown) => {
        throw wrap("DeleteObjects", error);
      });
      const failed = result.Errors?.[0];
      if (failed) throw new S3StoreError("DeleteObjects", undefined, codeOf({ Code: failed.Code }));
    }
  }

  async copyMissing(from: string, key: string): Promise<number> {
    const have = await this.list(key);
    let copied = 0;
    for (const name of await filesUnder(from)) {
      const source = path.join(from, name);
      if (have.get(name) === (await stat(source)).size) continue;
      await this.put(source, this.objectKey(`${key}/${name}`));
      copied++;
    }
    return copied;
  }

  /** The object at `key` as `GET /storage/*` answers it (see ObjectRequest). */
  async read(key: string, request: ObjectRequest): Promise<ObjectAnswer> {
    const { sdk, client } = await this.s3();
    const Key = this.objectKey(key);
    const conditions = {
      ...(request.ifNoneMatch ? { IfNoneMatch: request.ifNoneMatch } : {}),
      ...(request.ifModifiedSince && !Number.isNaN(Date.parse(request.ifModifiedSince)) ? { IfModifiedSince: new Date(request.ifModifiedSince) } : {}),
    };
    const headers = (o: { ContentType?: string; ETag?: string; LastModified?: Date }): Record<string, string> => ({
      "content-type": o.ContentType ?? contentTypeOf(key),
      "accept-ranges": "bytes",
      ...(o.ETag ? { etag: o.ETag } : {}),
      ...(o.LastModified ? { "last-modified": o.LastModified.toUTCString() } : {}),
    });
    const failed = async (operation: string, error: unknown): Promise<ObjectAnswer> => {
      const status = statusOf(error);
      if (missing(error)) return { status: 404, headers: {} };
      if (status === 304) return { status: 304, headers: {} };
      if (status === 416 || codeOf(error) === "InvalidRange") {
        const size = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key })).then((o) => o.ContentLength, () => undefined);
        return { status: 416, headers: size === undefined ? {} : { "content-range": `bytes */${size}` } };
      }
      throw wrap(operation, error);
    };

    if (request.head) {
      try {
        const o = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key, ...conditions }));
        return { status: 200, headers: { ...headers(o), "content-length": String(o.ContentLength ?? 0) } };
      } catch (error) {
        return failed("HeadObject", error);
      }
    }

    // If-Range: the range only while the object is the one the client has (else the whole file);
    // checked here against the answer's ETag / Last-Modified (not every S3-compatible server
    // honours If-Match on a ranged GET). A weak or unreadable validator never matches.
    const ifRange = request.ifRange;
    const sameObject = (o: { ETag?: string; LastModified?: Date }): boolean => {
      if (!ifRange) return true;
      if (ifRange.startsWith('"')) return o.ETag === ifRange;
      const date = ifRange.startsWith("W/") ? Number.NaN : Date.parse(ifRange);
      return o.LastModified !== undefined && Math.floor(o.LastModified.getTime() / 1000) === Math.floor(date / 1000);
    };
    const given = request.range && /^bytes=(?:\d+-\d*|-\d+)$/.test(request.range) ? request.range : undefined;
    let range = given;
    const suffix = range ? /^bytes=-(\d+)$/.exec(range) : null;
    if (suffix) {
      // The last n bytes, asked as an explicit range: some S3-compatible servers (s3rver) read
      // `bytes=-n` as `bytes=0-n`.
      let size: number;
      try {
        size = (await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key }))).ContentLength ?? 0;
      } catch (error) {
        return failed("HeadObject", error);
      }
      const last = Number(suffix[1]);
      if (last === 0 || size === 0) return { status: 416, headers: { "content-range": `bytes */${size}` } };
      range = `bytes=${Math.max(0, size - last)}-${size - 1}`;
    }
    const get = (withRange: boolean) => client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key, ...conditions, ...(withRange ? { Range: range } : {}) }));
    try {
      let o = await get(range !== undefined);
      if (range !== undefined && !sameObject(o)) {
        // The client's copy is another version: the whole file instead of the piece.
        (o.Body as Readable | undefined)?.destroy();
        o = await get(false);
      }
      const partial = o.ContentRange !== undefined && o.$metadata.httpStatusCode === 206;
      return {
        status: partial ? 206 : 200,
        headers: {
          ...headers(o),
          ...(o.ContentLength !== undefined ? { "content-length": String(o.ContentLength) } : {}),
          ...(partial ? { "content-range": o.ContentRange! } : {}),
        },
        body: o.Body as Readable,
      };
    } catch (error) {
      return failed("GetObject", error);
    }
  }
}
