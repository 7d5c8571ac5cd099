import { copyFile, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { AppConfig } from "../../config.ts";
import { S3Store } from "./s3.ts";

/**
 * Where the bytes of uploads live, behind one interface (storage.ts keeps the rows and the
 * locks, serving.ts answers `GET /storage/*`):
 * - LocalStore (the default): the folder DATA_DIR/storage, served by @fastify/static;
 * - S3Store (STORAGE=s3, s3.ts): an S3-compatible object store, so several machines share
 *   one set of files; `GET /storage/*` reads the object (Range passed through).
 *
 * A file is named by its key: its URL without `/storage/` (`default/20260101/<sha1>.png`); an
 * HLS video is a folder of files under one key (`course/hls/<sha1>`). Files arrive in a local
 * temp folder first (`tempDir`: received, hashed and checked there) and are then put in place.
 */
export interface FileStore {
  /** `attachment.storage` of the files it keeps. */
  readonly kind: "local" | "s3";
  /** The local folder where received files wait until they are kept or refused (never served). */
  readonly tempDir: string;
  /** Whether the file at `key` is there; a folder (`marker`: its file put last): whether it is there whole. */
  has(key: string, marker?: string): Promise<boolean>;
  /** Puts the local file `from` at `key`; `from` is gone afterwards. */
  putFile(from: string, key: string): Promise<void>;
  /** Puts every file of the local folder `from` under `key/`, `marker` last; `from` is gone afterwards. */
  putFolder(from: string, key: string, marker: string): Promise<void>;
  /** Removes the file `key` (a folder: every file under `key/`); nothing there is fine. */
  remove(key: string, folder: boolean): Promise<void>;
  /** Copies the files of the local folder `from` that are missing (or differ in size) under `key/`; answers how many. */
  copyMissing(from: string, key: string): Promise<number>;
}

/** The key of a `/storage/...` URL we issued; refuses anything that could leave the store (`..`, absolute, NUL). */
export function keyOf(url: string): string {
  const key = url.replace(/^\/storage\//, "");
  const parts = key.split("/");
  if (key === "" || key.includes("\0") || key.includes("\\") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new Error(`attachment url outside storage: ${url}`);
  }
  return key;
}

/** Every file under a local folder, as paths relative to it with `/` ("hls/index.m3u8"). */
export async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) found.push(name);
    }
  };
  await walk("");
  return found.sort();
}

const TEMP_DIR = ".tmp";

/** The folder DATA_DIR/storage (files moved into place with rename). */
export class LocalStore implements FileStore {
  readonly kind = "local";
  readonly root: string;
  readonly tempDir: string;

  constructor(dataDir: string) {
    this.root = path.join(path.resolve(dataDir), "storage");
    this.tempDir = path.join(this.root, TEMP_DIR);
  }

  /** The file or folder behind a key; never outside the storage folder. */
  pathOf(key: string): string {
    const full = path.resolve(this.root, keyOf(key));
    if (!full.startsWith(this.root + path.sep)) throw new Error(`attachment url outside storage: ${key}`);
    return full;
  }

  async has(key: string, marker?: string): Promise<boolean> {
    const info = await stat(this.pathOf(key)).catch(() => undefined);
    return marker === undefined ? info?.isFile() === true : info?.isDirectory() === true;
  }

  async putFile(from: string, key: string): Promise<void> {
    const to = this.pathOf(key);
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
  }

  async putFolder(from: string, key: string): Promise<void> {
    await this.putFile(from, key);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { recursive: true, force: true });
  }

  async copyMissing(from: string, key: string): Promise<number> {
    let copied = 0;
    for (const name of await filesUnder(from)) {
      const src = path.join(from, name);
      const dest = this.pathOf(`${key}/${name}`);
      const [have, want] = await Promise.all([stat(dest).catch(() => undefined), stat(src)]);
      if (have?.isFile() && have.size === want.size) continue;
      await mkdir(path.dirname(dest), { recursive: true });
      // Copied under a temporary name and renamed: never served half-written.
      const temp = `${dest}.${process.pid}.partial`;
      try {
        await copyFile(src, temp);
        await rename(temp, dest);
      } finally {
        await rm(temp, { force: true });
      }
      copied++;
    }
    return copied;
  }
}

/** One store per configuration (the S3 client and its connections are shared by every user). */
const stores = new WeakMap<AppConfig, FileStore>();

/** The store the configuration names: S3 when `config.s3` is set, else the local folder. */
export function fileStore(config: AppConfig): FileStore {
  let store = stores.get(config);
  if (!store) {
    store = config.s3 ? new S3Store(config.s3, config.dataDir) : new LocalStore(config.dataDir);
    stores.set(config, store);
  }
  return store;
}
