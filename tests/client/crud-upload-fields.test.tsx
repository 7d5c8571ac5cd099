import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import type { CrudDefinition } from "../../src/client/admin/crud/types.ts";
import { defaultSiteConfig, useSiteConfig } from "../../src/client/stores/siteConfig.ts";
import { envelope, grant, paramsOf, renderScreen } from "./crud-example.tsx";
import { chooseOption } from "../helpers/select.ts";

/** The engine's upload, rich-text and area field kinds, in the real form (only the request function is replaced). */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const definition: CrudDefinition = {
  path: "user/user",
  title: msg`Members`,
  columns: [{ field: "title", label: msg`Title` }],
  form: [
    { field: "cover", label: msg`Cover`, kind: "image", topic: "course" },
    { field: "photos", label: msg`Photos`, kind: "images" },
    { field: "handout", label: msg`Handout`, kind: "file" },
    { field: "intro", label: msg`Introduction`, kind: "richText" },
    { field: "area", label: msg`Area`, kind: "area" },
  ],
};

const provinces = [
  { label: "北京市", value: "11" },
  { label: "广东省", value: "44" },
];
const cities: Record<string, { label: string; value: string }[]> = { "44": [{ label: "广州市", value: "4401" }, { label: "深圳市", value: "4403" }] };

let uploads = 0;
let editRow: Record<string, unknown> = {};
const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const callsTo = (url: string) => calls().filter((c) => c.url === url);

beforeEach(() => {
  uploads = 0;
  useSiteConfig.setState({ upload: { ...defaultSiteConfig.upload, maxsize: 1024 * 1024, mimetype: "jpg,png,pdf" } });
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === "/admin/user/user/index") return envelope({ list: [{ id: 7, title: "row" }], total: 1 });
    if (config.url === "/admin/user/user/edit" && config.method === "get") return envelope({ row: { id: 7, ...editRow } });
    if (config.url === "/admin/ajax/upload") {
      const file = (config.data as FormData).get("file") as File;
      const topic = (config.data as FormData).get("topic");
      config.onUploadProgress?.({ loaded: 50, total: 100, bytes: 50, lengthComputable: true } as never);
      uploads++;
      const ext = file.name.split(".").pop();
      return envelope({ file: { id: uploads, url: `/storage/${String(topic)}/20260101/f${uploads}.${ext}`, name: file.name, size: file.size, mimetype: file.type } });
    }
    if (config.url === "/admin/ajax/area") {
      const province = paramsOf(config).province as string | undefined;
      return envelope(province ? (cities[province] ?? []) : provinces);
    }
    return envelope(null);
  }) as never);
  grant("add", "edit");
});

afterEach(() => vi.mocked(request).mockReset());

const png = (name: string, bytes = 10) => new File([new Uint8Array(bytes)], name, { type: "image/png" });

async function openAdd() {
  renderScreen(definition);
  await screen.findByText("row");
  await userEvent.click(screen.getByRole("button", { name: "Add" }));
  return screen.findByRole("dialog", { name: /Add/ });
}

async function save(dialog: HTMLElement) {
  await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
  await waitFor(() => expect(callsTo("/admin/user/user/add")).toHaveLength(1));
  return callsTo("/admin/user/user/add")[0]!.data as Record<string, unknown>;
}

describe("upload fields", () => {
  it("uploads an image to its topic, shows the thumbnail that opens the previewer, and removes it", async () => {
    const dialog = await openAdd();
    const [coverInput] = within(dialog).getAllByTestId("image-input");
    await userEvent.upload(coverInput!, png("cover.png"));
    const preview = await within(dialog).findByRole("button", { name: "Preview image 1" });
    expect(preview.querySelector("img")!.getAttribute("src")).toBe("/storage/course/20260101/f1.png");
    expect((callsTo("/admin/ajax/upload")[0]!.data as FormData).get("topic")).toBe("course");
    // Only one image: the add tile is gone.
    expect(within(dialog).queryByRole("button", { name: "Cover" })).toBeNull();
    await userEvent.click(preview);
    expect(await screen.findByRole("button", { name: "Close preview" })).toBeTruthy();
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove image 1" }));
    expect(within(dialog).getByRole("button", { name: "Cover" })).toBeTruthy();
    await userEvent.upload(within(dialog).getAllByTestId("image-input")[0]!, png("again.png"));
    await within(dialog).findByRole("button", { name: "Preview image 1" });
    expect((await save(dialog)).cover).toBe("/storage/course/20260101/f2.png");
  });

  it("keeps a list of images, removes one, and sends the list", async () => {
    const dialog = await openAdd();
    const photos = within(dialog).getAllByTestId("image-input")[1]!;
    await userEvent.upload(photos, [png("a.png"), png("b.png"), png("c.png")]);
    await waitFor(() => expect(within(dialog).getAllByRole("button", { name: /^Remove image/ })).toHaveLength(3));
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove image 2" }));
    const data = await save(dialog);
    expect(data.photos).toEqual(["/storage/default/20260101/f1.png", "/storage/default/20260101/f3.png"]);
  });

  it("refuses a file the site's rules refuse before sending it, with the SPEC message", async () => {
    const dialog = await openAdd();
    await userEvent.upload(within(dialog).getAllByTestId("image-input")[0]!, png("huge.png", 2 * 1024 * 1024));
    expect(await within(dialog).findByText("The size of the uploaded file exceeds the allowed range!")).toBeTruthy();
    const file = within(dialog).getByTestId("file-input");
    await userEvent.upload(file, new File(["x"], "run.exe", { type: "application/octet-stream" }), { applyAccept: false });
    expect(await within(dialog).findByText("The type of uploaded file is not allowed!")).toBeTruthy();
    expect(callsTo("/admin/ajax/upload")).toHaveLength(0);
  });

  it("uploads a file, shows its file-type icon and name, and can remove it", async () => {
    const dialog = await openAdd();
    await userEvent.upload(within(dialog).getByTestId("file-input"), new File(["%PDF"], "notes.pdf", { type: "application/pdf" }));
    const link = await within(dialog).findByRole("link", { name: "f1.pdf" });
    expect(link.getAttribute("href")).toBe("/storage/default/20260101/f1.pdf");
    const icon = link.parentElement!.querySelector("img")!;
    expect(icon.getAttribute("src")).toBe("/api/ajax/buildSuffixSvg?suffix=pdf");
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove file" }));
    expect(within(dialog).queryByRole("link", { name: "f1.pdf" })).toBeNull();
    expect((await save(dialog)).handout).toBe("");
  });
});

describe("area field", () => {
  it("loads the provinces, then the chosen province's cities, and sends [province, city]", async () => {
    const dialog = await openAdd();
    const province = within(dialog).getByRole("combobox", { name: "Area" });
    await waitFor(() => expect(province).toHaveTextContent("Province"));
    await chooseOption(province, "广东省");
    const city = within(dialog).getByRole("combobox", { name: "City" });
    await waitFor(() => expect(city).toBeEnabled());
    expect(callsTo("/admin/ajax/area").some((c) => paramsOf(c).province === "44")).toBe(true);
    await chooseOption(city, "深圳市");
    expect((await save(dialog)).area).toEqual(["44", "4403"]);
  });
});

describe("rich text field", () => {
  it("loads the editor on demand with the row's HTML and sends what is edited", async () => {
    editRow = { intro: "<p>Hello <strong>world</strong></p>", area: "44,4401", photos: ["/storage/x/1.png"] };
    renderScreen(definition);
    await screen.findByText("row");
    await userEvent.click(screen.getByRole("button", { name: "Edit row 7" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const toolbar = await within(dialog).findByRole("toolbar", { name: "Formatting" }, { timeout: 5000 });
    const editor = within(dialog).getByRole("textbox", { name: "Introduction" });
    await waitFor(() => expect(editor.innerHTML).toContain("<strong>world</strong>"));
    // The row's other list values are read back as lists.
    expect(within(dialog).getAllByRole("button", { name: /^Preview image/ })).toHaveLength(1);
    await waitFor(() => expect(within(dialog).getByRole("combobox", { name: "Area" })).toHaveTextContent("广东省"));
    expect(within(toolbar).getByRole("button", { name: "Bold" })).toBeTruthy();
    await userEvent.click(editor);
    await userEvent.keyboard("{Control>}a{/Control}");
    await userEvent.click(within(toolbar).getByRole("button", { name: "Heading 2" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/user/user/edit").filter((c) => c.method === "post")).toHaveLength(1));
    const sent = callsTo("/admin/user/user/edit").find((c) => c.method === "post")!.data as Record<string, unknown>;
    expect(sent.intro).toContain("<h2>");
    expect(sent.intro).toContain("<strong>world</strong>");
    editRow = {};
  });
});

describe("rich text images", () => {
  async function openEditor() {
    const dialog = await openAdd();
    await within(dialog).findByRole("toolbar", { name: "Formatting" }, { timeout: 5000 });
    return { dialog, editor: within(dialog).getByRole("textbox", { name: "Introduction" }) };
  }

  /** A paste event carrying these files and this HTML, as a browser's clipboard gives them. */
  function paste(target: HTMLElement, files: File[], html = "") {
    const event = new Event("paste", { bubbles: true, cancelable: true });
    const data = { files, types: [...(files.length ? ["Files"] : []), ...(html ? ["text/html"] : [])], getData: (type: string) => (type === "text/html" ? html : "") };
    Object.defineProperty(event, "clipboardData", { value: data });
    target.dispatchEvent(event);
    return event;
  }

  it("uploads the chosen image to the editor's topic and inserts it, then sends it", async () => {
    const { dialog, editor } = await openEditor();
    const button = within(dialog).getByRole("button", { name: "Insert image" });
    // Keyboard reachable: Tab from the link tool lands on it.
    within(dialog).getByRole("button", { name: "Link" }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(button);
    await userEvent.upload(within(dialog).getByTestId("richtext-image-input"), png("diagram.png"));
    await waitFor(() => expect(editor.querySelector("img")?.getAttribute("src")).toBe("/storage/editor/20260101/f1.png"));
    expect(editor.querySelector("img")!.getAttribute("alt")).toBe("diagram");
    expect((callsTo("/admin/ajax/upload")[0]!.data as FormData).get("topic")).toBe("editor");
    const data = await save(dialog);
    expect(data.intro).toContain(`<img src="/storage/editor/20260101/f1.png" alt="diagram">`);
  });

  it("refuses a file that is not an image, or too large, before sending it, and says why", async () => {
    const { dialog, editor } = await openEditor();
    const input = within(dialog).getByTestId("richtext-image-input");
    await userEvent.upload(input, new File(["%PDF"], "notes.pdf", { type: "application/pdf" }), { applyAccept: false });
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Please choose an image");
    await userEvent.upload(input, png("huge.png", 2 * 1024 * 1024));
    expect(await within(dialog).findByText("The size of the uploaded file exceeds the allowed range!")).toBeTruthy();
    expect(callsTo("/admin/ajax/upload")).toHaveLength(0);
    expect(editor.querySelector("img")).toBeNull();
  });

  it("uploads a pasted image file instead of embedding it, and never keeps a pasted data: image", async () => {
    const { dialog, editor } = await openEditor();
    await userEvent.click(editor);
    // HTML from another page with an image inlined as a data: URI: the text stays, the image does not.
    paste(editor, [], `<p>copied text</p><img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">`);
    await waitFor(() => expect(editor.textContent).toContain("copied text"));
    expect(editor.innerHTML).not.toContain("data:");
    expect(callsTo("/admin/ajax/upload")).toHaveLength(0);
    // An image file (a screenshot copied): uploaded, and its stored address inserted.
    const pasted = paste(editor, [png("clip.png")]);
    expect(pasted.defaultPrevented).toBe(true);
    await waitFor(() => expect(editor.querySelector("img")?.getAttribute("src")).toBe("/storage/editor/20260101/f1.png"));
    expect(callsTo("/admin/ajax/upload")).toHaveLength(1);
    const data = await save(dialog);
    expect(data.intro).not.toContain("data:");
    expect(data.intro).toContain("copied text");
    expect(data.intro).toContain(`src="/storage/editor/20260101/f1.png"`);
  });
});
