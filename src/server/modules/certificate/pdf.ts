import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type * as PdfLib from "pdf-lib";
import type * as Fontkit from "@pdf-lib/fontkit";
import type * as QrCode from "qrcode";
import { lazyRequire } from "../../lazy.ts";

/**
 * A certificate as a one-page A4 landscape PDF (pdf-lib, loaded on the first certificate, not at
 * start-up). Text is Noto Sans SC (OFL) from @fontsource/noto-sans-sc, which ships the font split
 * into WOFF chunks by unicode range: each character is drawn in the chunk that holds it, and only
 * the chunks a certificate uses are embedded, each as a subset of its glyphs. The QR code (qrcode)
 * holds the absolute URL of the public verification page.
 */

const pdfLib = lazyRequire<typeof PdfLib>("pdf-lib");
const fontkit = lazyRequire<typeof Fontkit>("@pdf-lib/fontkit");
const qrcode = lazyRequire<typeof QrCode>("qrcode");
const require = createRequire(import.meta.url);

/** What a certificate says (as issued, or the sample values of a template's preview). */
export interface CertificateContent {
  title: string;
  memberName: string;
  /** The wording with its placeholders already filled in. */
  wording: string;
  /** Lines under the wording: the date, the score, the serial (already translated). */
  details: string[];
  textColor: string;
  accentColor: string;
  /** PNG or JPEG bytes of the signature image, when the template has one. */
  signature?: Uint8Array | null;
  /** The URL the QR code holds, and a caption under it. */
  verifyUrl: string;
  verifyCaption: string;
}

interface Chunk {
  file: string;
  ranges: [number, number][];
}

let chunkList: Chunk[] | undefined;

/** The font's chunks with their unicode ranges (the package's unicode.json), latin last. */
function chunks(): Chunk[] {
  if (chunkList) return chunkList;
  const dir = path.dirname(require.resolve("@fontsource/noto-sans-sc/unicode.json"));
  const table = JSON.parse(readFileSync(path.join(dir, "unicode.json"), "utf8")) as Record<string, string>;
  chunkList = Object.entries(table).map(([key, ranges]) => ({
    file: path.join(dir, "files", `noto-sans-sc-${key.replace(/^\[|\]$/g, "")}-400-normal.woff`),
    ranges: ranges.split(",").map((r) => {
      const [a, b] = r.trim().replace(/^U\+/i, "").split("-");
      return [parseInt(a!, 16), parseInt(b ?? a!, 16)] as [number, number];
    }),
  }));
  return chunkList;
}

const chunkCache = new Map<number, Chunk | undefined>();

/** The chunk holding a code point (the last listed wins, so ASCII comes from the latin chunk), or undefined; remembered per code point. */
function chunkOf(codePoint: number): Chunk | undefined {
  if (chunkCache.has(codePoint)) return chunkCache.get(codePoint);
  const list = chunks();
  let found: Chunk | undefined;
  for (let i = list.length - 1; i >= 0 && !found; i--) {
    if (list[i]!.ranges.some(([a, b]) => codePoint >= a && codePoint <= b)) found = list[i];
  }
  chunkCache.set(codePoint, found);
  return found;
}

const fileCache = new Map<string, Buffer>();
const fontBytes = (file: string) => fileCache.get(file) ?? fileCache.set(file, readFileSync(file)).get(file)!;

interface Run {
  font: PdfLib.PDFFont;
  text: string;
}

/** Splits text into runs of one chunk each (characters the font lacks become "?"), embedding the chunks it needs once per document. */
async function runsOf(doc: PdfLib.PDFDocument, fonts: Map<Chunk, PdfLib.PDFFont>, text: string): Promise<Run[]> {
  const runs: Run[] = [];
  for (const ch of text) {
    let chunk = chunkOf(ch.codePointAt(0)!);
    const shown = chunk ? ch : "?";
    chunk ??= chunkOf(0x3f)!;
    let font = fonts.get(chunk);
    if (!font) {
      font = await doc.embedFont(fontBytes(chunk.file), { subset: true });
      fonts.set(chunk, font);
    }
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += shown;
    else runs.push({ font, text: shown });
  }
  return runs;
}

const widthOf = (runs: Run[], size: number) => runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);

function hexColor(hex: string): PdfLib.RGB {
  const n = parseInt(/^#[0-9a-f]{6}$/i.test(hex) ? hex.slice(1) : "1f2937", 16);
  return pdfLib().rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/**
 * Breaks text into lines no wider than `max` (by `measure`): at spaces where a line has them (words
 * stay whole), else between any two characters (Chinese has no spaces); "\n" always breaks.
 */
function wrap(text: string, measure: (s: string) => number, max: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    for (const ch of paragraph) {
      const next = line + ch;
      if (measure(next) <= max || line === "") {
        line = next;
        continue;
      }
      const space = line.lastIndexOf(" ");
      if (ch !== " " && space > 0) {
        lines.push(line.slice(0, space));
        line = line.slice(space + 1) + ch;
      } else {
        lines.push(line);
        line = ch === " " ? "" : ch;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** The certificate's PDF bytes. */
export async function renderCertificate(content: CertificateContent): Promise<Uint8Array> {
  const { PDFDocument } = pdfLib();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit());
  doc.setTitle(content.title);
  doc.setCreator("ExamHub");
  const page = doc.addPage([842, 595]);
  const { width, height } = page.getSize();
  const fonts = new Map<Chunk, PdfLib.PDFFont>();
  const text = hexColor(content.textColor);
  const accent = hexColor(content.accentColor);

  // Frame: a thick accent border and a thin inner line.
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: accent, borderWidth: 6 });
  page.drawRectangle({ x: 38, y: 38, width: width - 76, height: height - 76, borderColor: accent, borderWidth: 1 });

  const centred = async (line: string, y: number, size: number, color: PdfLib.RGB) => {
    const runs = await runsOf(doc, fonts, line);
    let x = (width - widthOf(runs, size)) / 2;
    for (const r of runs) {
      page.drawText(r.text, { x, y, size, font: r.font, color });
      x += r.font.widthOfTextAtSize(r.text, size);
    }
  };

  await centred(content.title, height - 130, 36, accent);
  page.drawLine({ start: { x: width / 2 - 90, y: height - 150 }, end: { x: width / 2 + 90, y: height - 150 }, thickness: 2, color: accent });
  await centred(content.memberName, height - 215, 30, text);

  // The wording, wrapped: its fonts are embedded first, so each candidate line is measured in them.
  const size = 15;
  await runsOf(doc, fonts, content.wording);
  const measure = (s: string) => {
    let w = 0;
    for (const ch of s) {
      const chunk = chunkOf(ch.codePointAt(0)!);
      w += chunk ? fonts.get(chunk)!.widthOfTextAtSize(ch, size) : size;
    }
    return w;
  };
  let y = height - 265;
  for (const line of wrap(content.wording, measure, width - 200).slice(0, 6)) {
    await centred(line, y, size, text);
    y -= size * 1.6;
  }

  // Details (date, score, serial) bottom centre; QR code bottom left; signature bottom right.
  let dy = 120;
  for (const line of content.details) {
    await centred(line, dy, 11, text);
    dy -= 17;
  }

  const qr = await qrcode().toBuffer(content.verifyUrl, { type: "png", errorCorrectionLevel: "M", margin: 1, width: 240 });
  const qrImage = await doc.embedPng(qr);
  page.drawImage(qrImage, { x: 62, y: 62, width: 96, height: 96 });
  const caption = await runsOf(doc, fonts, content.verifyCaption);
  let cx = 62;
  for (const r of caption) {
    page.drawText(r.text, { x: cx, y: 50, size: 8, font: r.font, color: text });
    cx += r.font.widthOfTextAtSize(r.text, 8);
  }

  if (content.signature && content.signature.length > 0) {
    const bytes = content.signature;
    const isPng = bytes[0] === 0x89 && bytes[1] === 0x50;
    const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
    const image = isPng ? await doc.embedPng(bytes).catch(() => null) : isJpeg ? await doc.embedJpg(bytes).catch(() => null) : null;
    if (image) {
      const scaled = image.scaleToFit(170, 70);
      page.drawImage(image, { x: width - 72 - scaled.width, y: 80, width: scaled.width, height: scaled.height });
      page.drawLine({ start: { x: width - 242, y: 74 }, end: { x: width - 72, y: 74 }, thickness: 1, color: text });
    }
  }

  return doc.save();
}
