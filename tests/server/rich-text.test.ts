import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sanitizeHtmlFields, sanitizeRichText, withSanitizedHtml } from "../../src/server/crud/richText.ts";

/** The server's rich-text sanitiser (what the back office's TipTap fields send is stored only after it). */
describe("rich text sanitising", () => {
  it("removes scripts, event handlers and javascript: URLs", () => {
    const dirty = [
      `<p>Hi<script>alert(1)</script></p>`,
      `<img src="/storage/a/b.png" onerror="alert(1)" alt="x">`,
      `<a href="javascript:alert(1)" onclick="steal()">link</a>`,
      `<a href="JaVaScRiPt:alert(1)">mixed case</a>`,
      `<a href="java&#x09;script:alert(1)">entity</a>`,
      `<img src="javascript:alert(1)">`,
      `<iframe src="https://evil.example"></iframe><style>body{display:none}</style>`,
      `<p style="background:url(javascript:alert(1))">styled</p>`,
      `<svg onload="alert(1)"><circle /></svg>`,
      `<form action="/x"><input name="a"></form>`,
    ].join("");
    const clean = sanitizeRichText(dirty);
    expect(clean).not.toMatch(/<script|alert\(1\)<|onerror|onclick|onload|javascript:|<iframe|<style|style=|<svg|<form|<input/i);
    expect(clean).toContain("<p>Hi</p>");
    expect(clean).toContain(`<img src="/storage/a/b.png" alt="x" />`);
    expect(clean).toContain(">link</a>");
  });

  it("keeps images of stored files (the editor's uploads) and drops data: and javascript: images", () => {
    const html =
      `<p>a</p><img src="/storage/editor/20261128/0123456789abcdef0123456789abcdef01234567.png" alt="diagram">` +
      `<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">` +
      `<img src="DATA:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">` +
      `<img src="javascript:alert(1)" alt="js">` +
      `<img src=" javascript:alert(2)">` +
      `<img src="https://cdn.example.com/x.png" alt="web">`;
    const clean = sanitizeRichText(html);
    expect(clean).toContain(`<img src="/storage/editor/20261128/0123456789abcdef0123456789abcdef01234567.png" alt="diagram" />`);
    expect(clean).toContain(`<img src="https://cdn.example.com/x.png" alt="web" />`);
    expect(clean).not.toMatch(/data:|javascript:|base64/i);
    // An image whose address was refused goes whole (no broken image on the member's page).
    expect(clean.match(/<img/g)).toHaveLength(2);
    expect(clean).not.toContain(`alt="inline"`);
  });

  it("keeps the formatting the editor makes", () => {
    const html =
      `<h2>Title</h2><p><strong>bold</strong> <em>it</em> <u>u</u> <s>s</s> <code>c</code></p>` +
      `<ul><li><p>one</p></li></ul><ol><li>two</li></ol><blockquote><p>q</p></blockquote>` +
      `<pre><code class="language-js">x</code></pre><p><a href="https://example.com" target="_blank">ex</a></p><hr />`;
    const clean = sanitizeRichText(html);
    for (const kept of ["<h2>Title</h2>", "<strong>bold</strong>", "<em>it</em>", "<u>u</u>", "<s>s</s>", "<ul><li><p>one</p></li></ul>", "<ol><li>two</li></ol>", "<blockquote><p>q</p></blockquote>", `<pre><code class="language-js">x</code></pre>`, "<hr />"]) {
      expect(clean).toContain(kept);
    }
    expect(clean).toContain(`<a href="https://example.com" target="_blank" rel="noopener noreferrer">ex</a>`);
  });

  it("sanitises the named fields of a body, and a schema wrapped with it stores only clean HTML", () => {
    expect(sanitizeHtmlFields({ title: "<b>t</b>", content: `<p onclick="x()">c</p>` }, ["content"])).toEqual({ title: "<b>t</b>", content: "<p>c</p>" });
    const schema = withSanitizedHtml(z.object({ id: z.number(), intro: z.string() }), ["intro"]);
    expect(schema.parse({ id: 1, intro: `<p>ok</p><script>x</script>` })).toEqual({ id: 1, intro: "<p>ok</p>" });
    expect(schema.safeParse({ id: "1", intro: "" }).success).toBe(false);
  });
});
