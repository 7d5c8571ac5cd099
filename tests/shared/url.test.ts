import { describe, expect, it } from "vitest";
import { fullUrl, isAbsoluteUrl } from "../../src/shared/url.ts";

describe("isAbsoluteUrl", () => {
  it.each([
    ["http://example.com/a.png", true],
    ["https://example.com", true],
    ["HTTPS://EXAMPLE.COM/x", true],
    ["ftp://files.example.com/a.zip", true],
    ["mailto:someone@example.com", true],
    ["MailTo:someone@example.com", true],
    ["tel:+8613800138000", true],
    ["/storage/a.png", false],
    ["storage/a.png", false],
    ["//cdn.example.com/a.png", false],
    ["data:image/png;base64,AAAA", false],
    ["httpx://example.com", false],
    ["javascript:alert(1)", false],
    ["", false],
  ])("%j -> %s", (url, expected) => {
    expect(isAbsoluteUrl(url)).toBe(expected);
  });
});

describe("fullUrl", () => {
  const cdn = "https://cdn.example.com";
  const base = "https://www.example.com";

  it.each([
    // unchanged: absolute, protocol-relative, data:image
    ["https://a.example.com/x.png", cdn, base, "https://a.example.com/x.png"],
    ["http://a.example.com/x.png", cdn, base, "http://a.example.com/x.png"],
    ["ftp://a.example.com/x.zip", cdn, base, "ftp://a.example.com/x.zip"],
    ["mailto:a@example.com", cdn, base, "mailto:a@example.com"],
    ["tel:10086", cdn, base, "tel:10086"],
    ["//img.example.com/x.png", cdn, base, "//img.example.com/x.png"],
    ["data:image/png;base64,iVBORw0KGgo=", cdn, base, "data:image/png;base64,iVBORw0KGgo="],
    ["DATA:IMAGE/svg+xml;utf8,<svg/>", cdn, base, "DATA:IMAGE/svg+xml;utf8,<svg/>"],
    // relative: CDN first
    ["/storage/a.png", cdn, base, "https://cdn.example.com/storage/a.png"],
    ["storage/a.png", cdn, base, "https://cdn.example.com/storage/a.png"],
    ["/storage/a.png", `${cdn}/`, base, "https://cdn.example.com/storage/a.png"],
    ["/storage", `${cdn}//`, base, "https://cdn.example.com/storage"],
    // relative: default base when the CDN url is missing or empty
    ["/storage/a.png", "", base, "https://www.example.com/storage/a.png"],
    ["/storage/a.png", undefined, base, "https://www.example.com/storage/a.png"],
    ["/storage/a.png", null, `${base}/`, "https://www.example.com/storage/a.png"],
    ["storage/a.png", undefined, base, "https://www.example.com/storage/a.png"],
    // data: that is not an image is relative
    ["data:text/html,hi", undefined, base, "https://www.example.com/data:text/html,hi"],
    // no base at all: unchanged
    ["/storage/a.png", undefined, undefined, "/storage/a.png"],
    ["/storage/a.png", "", "", "/storage/a.png"],
    // empty url
    ["", cdn, base, ""],
    ["", undefined, base, ""],
  ])("fullUrl(%j, %j, %j) = %j", (url, cdnUrl, defaultBase, expected) => {
    expect(fullUrl(url, cdnUrl, defaultBase)).toBe(expected);
  });
});
