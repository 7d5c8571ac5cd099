import { describe, expect, it } from "vitest";
import { checkUpload, isAllowedFileType, parseSize } from "../../src/shared/upload.ts";

const INCOMPLETE = "The data of the uploaded file is incomplete!";
const TYPE = "The type of uploaded file is not allowed!";
const SIZE = "The size of the uploaded file exceeds the allowed range!";

describe("parseSize", () => {
  it.each([
    ["10mb", 10 * 1024 * 1024],
    ["10MB", 10 * 1024 * 1024],
    ["10 MB", 10 * 1024 * 1024],
    ["10m", 10 * 1024 * 1024],
    ["512kb", 512 * 1024],
    ["512k", 512 * 1024],
    ["2gb", 2 * 1024 ** 3],
    ["1tb", 1024 ** 4],
    ["1024", 1024],
    ["1024b", 1024],
    [" 1.5kb ", 1536],
    ["0", 0],
    [2048, 2048],
    [0, 0],
    [10.9, 10],
  ])("parseSize(%j) = %i", (input, expected) => {
    expect(parseSize(input)).toBe(expected);
  });

  it.each(["", "abc", "10xb", "-1mb", "mb", "1.2.3kb"])("rejects %j", (input) => {
    expect(() => parseSize(input)).toThrow(RangeError);
  });

  it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY]])("rejects the number %s", (input) => {
    expect(() => parseSize(input)).toThrow(RangeError);
  });
});

describe("isAllowedFileType", () => {
  it.each([
    // extension, any case, with or without a leading dot in the list
    ["photo.jpg", "image/jpeg", "jpg,png", true],
    ["PHOTO.JPG", "", "jpg,png", true],
    ["photo.jpg", "", ".jpg,.png", true],
    ["photo.PNG", "", " .JPG , png ", true],
    ["archive.tar.gz", "", "gz", true],
    ["archive.tar.gz", "", "tar", false],
    ["photo.jpg", "", "png,gif", false],
    // `*` allows everything
    ["script.exe", "application/x-msdownload", "*", true],
    ["script.exe", "", "jpg, *", true],
    // MIME fallback: full value or type/* wildcard
    ["blob", "image/png", "image/*", true],
    ["photo.webp", "image/webp", "jpg,image/webp", true],
    ["photo.webp", "IMAGE/WEBP", "jpg,image/webp", true],
    ["photo.webp", "image/webp; charset=binary", "image/*", true],
    ["clip.mp4", "video/mp4", "image/*", false],
    ["clip.mp4", "video/mp4", "jpg,png", false],
    ["clip.mp4", "", "image/*", false],
    ["noextension", "", "noextension", false],
    ["file.", "", "jpg", false],
    // an empty file name is rejected, whatever the list says
    ["", "image/png", "*", false],
    ["", "image/png", "image/*", false],
    // an empty list allows nothing
    ["photo.jpg", "image/jpeg", "", false],
  ])("isAllowedFileType(%j, %j, %j) = %s", (fileName, mimeType, allowList, expected) => {
    expect(isAllowedFileType(fileName, mimeType, allowList)).toBe(expected);
  });
});

describe("checkUpload", () => {
  const config = { maxsize: parseSize("1mb"), mimetype: "jpg,png,image/webp" };
  const MB = 1024 * 1024;

  it.each([
    // fine
    [{ name: "a.jpg", size: 100, type: "image/jpeg" }, null],
    [{ name: "a.png", size: MB, type: "image/png" }, null],
    [{ name: "a.png", size: 0 }, null],
    [{ name: "a", size: 10, type: "image/webp" }, null],
    // incomplete
    [null, INCOMPLETE],
    [undefined, INCOMPLETE],
    [{}, INCOMPLETE],
    [{ size: 10, type: "image/png" }, INCOMPLETE],
    [{ name: "", size: 10 }, INCOMPLETE],
    [{ name: "   ", size: 10 }, INCOMPLETE],
    [{ name: "a.jpg" }, INCOMPLETE],
    [{ name: "a.jpg", size: -1 }, INCOMPLETE],
    [{ name: "a.jpg", size: Number.NaN }, INCOMPLETE],
    [{ name: "a.jpg", size: Number.POSITIVE_INFINITY }, INCOMPLETE],
    // type
    [{ name: "a.exe", size: 10, type: "application/x-msdownload" }, TYPE],
    [{ name: "a.gif", size: 10, type: "image/gif" }, TYPE],
    // size
    [{ name: "a.jpg", size: MB + 1, type: "image/jpeg" }, SIZE],
    // ORDER: incomplete before type before size
    [{ name: "", size: 50 * MB, type: "application/x-msdownload" }, INCOMPLETE],
    [{ name: "a.jpg", size: -5 }, INCOMPLETE],
    [{ name: "a.exe", size: 50 * MB, type: "application/x-msdownload" }, TYPE],
  ])("checkUpload(%j) -> %j", (file, expected) => {
    expect(checkUpload(file, config)?.message ?? null).toBe(expected);
  });

  it("returns Lingui descriptors with ids", () => {
    const result = checkUpload(null, config);
    expect(result).toEqual({ id: expect.any(String), message: INCOMPLETE });
  });

  it("allows everything with `*` but still checks the size", () => {
    const any = { maxsize: 10, mimetype: "*" };
    expect(checkUpload({ name: "a.exe", size: 10 }, any)).toBeNull();
    expect(checkUpload({ name: "a.exe", size: 11 }, any)?.message).toBe(SIZE);
  });
});
