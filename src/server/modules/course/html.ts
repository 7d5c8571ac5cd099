import type sanitizeHtmlModule from "sanitize-html";
import { lazyRequire } from "../../lazy.ts";

const sanitizeHtml = lazyRequire<typeof sanitizeHtmlModule>("sanitize-html");

/**
 * Rich text of course introductions and lesson content. Everything written goes through
 * `sanitizeRichText` (the demo seed too, and later the back office), and the API sanitises
 * again on the way out, so HTML that reached the table some other way is never served raw.
 * Allowed: text formatting, headings, lists, quotes, code, tables, links (http/https/mailto,
 * or site-relative) and images (http/https or site-relative). No scripts, styles, event
 * handlers, iframes or forms.
 */
const OPTIONS: sanitizeHtmlModule.IOptions = {
  allowedTags: [
    "p", "br", "hr", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
    "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "pre", "code", "kbd", "span", "div", "figure", "figcaption",
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "a", "img",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    ol: ["start", "type"],
    code: ["class"],
    pre: ["class"],
  },
  allowedClasses: { code: [/^language-[\w-]+$/], pre: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // An image whose address was refused (data:, javascript:...) would show as a broken image: it goes.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  transformTags: {
    // Links that open elsewhere never get a handle on this window.
    a: (tagName, attribs) => {
      const out: sanitizeHtmlModule.Attributes = { ...attribs };
      if (out.target && out.target !== "_blank") delete out.target;
      if (out.target === "_blank") out.rel = "noopener noreferrer";
      return { tagName, attribs: out };
    },
  },
};

/** Safe HTML for rich text; '' for anything that is not a string. */
export function sanitizeRichText(html: unknown): string {
  if (typeof html !== "string" || html === "") return "";
  return sanitizeHtml()(html, OPTIONS).trim();
}

/** A media or attachment URL the client may load: a /storage/ path or an absolute http(s) URL; else ''. */
export function safeMediaUrl(url: unknown): string {
  if (typeof url !== "string") return "";
  const value = url.trim();
  if (/^\/storage\/[^\s\\]+$/.test(value) && !value.split("/").includes("..")) return value;
  try {
    const parsed = new URL(value);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.toString() : "";
  } catch {
    return "";
  }
}
