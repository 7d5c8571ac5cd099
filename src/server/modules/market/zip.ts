import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import yauzl from "yauzl";
import { MODULE_ZIP } from "../../../shared/admin/modules.ts";
import { ApiError } from "../../errors.ts";

/**
 * A module zip read whole into memory (it is small: see MODULE_ZIP), checked before anything is
 * written. First the central directory alone: every entry's name (no absolute path, no `..`,
 * no backslash or drive, plain characters only, no symbolic link), how many there are, and
 * names that clash once written (nameClash). Then each entry really inflated (yauzl
 * checks the real size against the header's; the bytes are counted as they come, so a header
 * lying about its size stops at the limit), with its compression ratio. One folder level at the
 * top is allowed (`notice/manifest.json`) and taken off.
 */

export interface ZipFiles {
  /** Path inside the module folder -> its bytes. */
  files: Map<string, Buffer>;
}

const SAFE_PART = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ALLOWED_FILE = /\.(json|md|txt)$/i;

const refuse = (message: MessageDescriptor): never => {
  throw new ApiError(message);
};

/** Symbolic links are stored with the Unix mode S_IFLNK in the external attributes' high half. */
const isSymlink = (entry: yauzl.Entry): boolean => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

/** The entry's name as a relative path, or a refusal. */
export function entryPath(name: string): string {
  if (name.startsWith("/") || name.startsWith("\\") || /^[A-Za-z]:/.test(name)) refuse(msg`The zip holds a file with an absolute path`);
  if (name.includes("\\")) refuse(msg`The zip holds a file name with a backslash`);
  const parts = name.split("/");
  if (parts.some((p) => p === ".." || p === ".")) refuse(msg`The zip holds a path with ".."`);
  const clean = parts.filter((p, i) => !(p === "" && i === parts.length - 1));
  if (clean.length === 0 || clean.length > 3 || clean.some((p) => !SAFE_PART.test(p))) refuse(msg`The zip holds a file name that is not allowed`);
  return clean.join("/");
}

/**
 * Names that cannot all be written as they are: the same name twice, two names that differ only
 * in letter case (one file on a case-insensitive disk), or a name that is a file and also a
 * folder of another (`a.json` and `a.json/b.json`). Checked on the central directory's names
 * before anything is inflated or written.
 */
export function nameClash(paths: readonly string[]): MessageDescriptor | null {
  const files = new Map<string, string>();
  const folders = new Map<string, string>();
  for (const p of paths) {
    const isFolder = p.endsWith("/");
    const clean = isFolder ? p.slice(0, -1) : p;
    const parts = clean.split("/");
    // Every folder the name lies in (and the name itself when it is a folder).
    for (let i = 1; i <= parts.length - (isFolder ? 0 : 1); i++) {
      const name = parts.slice(0, i).join("/");
      const key = name.toLowerCase();
      if (files.has(key)) return msg`The zip holds "${name}" both as a file and as a folder`;
      const known = folders.get(key);
      if (known === undefined) folders.set(key, name);
      else if (known !== name) return msg`The zip holds two names that differ only in capitals: "${name}"`;
    }
    if (isFolder) continue;
    const name = clean;
    const key = name.toLowerCase();
    if (folders.has(key)) return msg`The zip holds "${name}" both as a file and as a folder`;
    const seen = files.get(key);
    if (seen === name) return msg`The zip holds the same file twice: "${name}"`;
    if (seen !== undefined) return msg`The zip holds two names that differ only in capitals: "${name}"`;
    files.set(key, name);
  }
  return null;
}

export async function readModuleZip(data: Buffer): Promise<ZipFiles> {
  if (data.length > MODULE_ZIP.maxBytes) refuse(msg`The module zip is too large (at most 2 MB)`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false });
  } catch {
    return refuse(msg`The file is not a zip`);
  }
  if (zip.entryCount > MODULE_ZIP.maxEntries) {
    zip.close();
    const max = MODULE_ZIP.maxEntries;
    refuse(msg`The zip holds too many files (at most ${max})`);
  }
  // First pass: the central directory only (names, kinds, sizes), nothing inflated yet.
  const listed: { entry: yauzl.Entry; path: string }[] = [];
  let problem: MessageDescriptor | null = null;
  await new Promise<void>((resolve) => {
    const stop = (message: MessageDescriptor) => {
      problem ??= message;
      resolve();
    };
    zip.on("error", () => stop(msg`The zip is damaged`));
    zip.on("end", () => resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      if (problem) return;
      // Names are decoded here (decodeStrings: false), so each refusal has its own message.
      const name = (entry.fileName as unknown as Buffer).toString("utf8");
      let path: string;
      try {
        path = entryPath(name);
      } catch (error) {
        return stop(error instanceof ApiError && typeof error.msgDescriptor !== "string" ? error.msgDescriptor : msg`The zip holds a file name that is not allowed`);
      }
      if (isSymlink(entry)) return stop(msg`The zip holds a symbolic link`);
      if (name.endsWith("/")) {
        listed.push({ entry, path: `${path}/` });
        return zip.readEntry();
      }
      if (!ALLOWED_FILE.test(path)) return stop(msg`A module zip holds only .json, .md and .txt files`);
      if (entry.isEncrypted()) return stop(msg`The zip holds an encrypted file`);
      listed.push({ entry, path });
      zip.readEntry();
    });
    zip.readEntry();
  });
  if (!problem) problem = nameClash(listed.map((l) => l.path));
  if (problem) {
    zip.close();
    refuse(problem);
  }
  // Second pass: each file inflated, its real bytes counted.
  const files = new Map<string, Buffer>();
  let total = 0;
  for (const { entry, path } of listed) {
    if (path.endsWith("/")) continue;
    if (entry.uncompressedSize > MODULE_ZIP.maxEntryBytes || total + entry.uncompressedSize > MODULE_ZIP.maxTotalBytes) {
      problem = msg`A file in the zip is too large once unpacked (at most 1 MB each, 4 MB in all)`;
      break;
    }
    if (entry.compressedSize > 0 && entry.uncompressedSize / entry.compressedSize > MODULE_ZIP.maxRatio) {
      problem = msg`A file in the zip is compressed too much to be a module file (a zip bomb?)`;
      break;
    }
    const read = await new Promise<Buffer | MessageDescriptor>((resolve) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return resolve(msg`The zip is damaged`);
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = (value: Buffer | MessageDescriptor) => {
          if (done) return;
          done = true;
          resolve(value);
        };
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          // The real inflated bytes, whatever the header said.
          if (size > MODULE_ZIP.maxEntryBytes || total + size > MODULE_ZIP.maxTotalBytes || size > Math.max(1, entry.compressedSize) * MODULE_ZIP.maxRatio) {
            stream.destroy();
            finish(msg`A file in the zip is too large once unpacked (at most 1 MB each, 4 MB in all)`);
            return;
          }
          chunks.push(chunk);
        });
        // yauzl's size check (validateEntrySizes) and a broken deflate stream end here.
        stream.on("error", () => finish(msg`The zip is damaged: a file's size does not match its header`));
        stream.on("end", () => finish(Buffer.concat(chunks)));
      });
    });
    if (!Buffer.isBuffer(read)) {
      problem = read;
      break;
    }
    total += read.length;
    files.set(path, read);
  }
  zip.close();
  if (problem) refuse(problem);
  // One top folder (`notice/...`) is taken off when every file is under it.
  const paths = [...files.keys()];
  const tops = new Set(paths.map((p) => (p.includes("/") ? p.split("/")[0] : "")));
  if (tops.size === 1 && !tops.has("")) {
    const top = [...tops][0]!;
    return { files: new Map([...files].map(([p, b]) => [p.slice(top.length + 1), b])) };
  }
  return { files };
}
