import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import courses from "../../src/client/admin/course/courses.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { chooseOption } from "../helpers/select.ts";
import { envelope, paramsOf, renderScreen } from "./crud-example.tsx";

/**
 * The course form's lessons: listed in the member's order, added with the lessons screen's own
 * form preset to this course, edited and deleted there; a new course gets them once saved (its
 * form stays open as the course's edit form). Only the request function is replaced.
 */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const COURSE = { id: 5, title: "Safety basics", category_id: 2, category_title: "Safety", cover: "", summary: "", introduction: "", price: 0, weigh: 0, status: "enable", company_ids: [], duty_ids: [], classroom_ids: [], lesson_count: 2 };
let lessonRows: Record<string, unknown>[] = [];
const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const callsTo = (url: string, method?: string) => calls().filter((c) => c.url === url && (!method || (c.method ?? "get") === method));

beforeEach(() => {
  lessonRows = [
    { id: 11, course_id: 5, title: "Fire exits", video_type: "webm", duration: 20, free_preview: true, status: "enable", weigh: 2 },
    { id: 12, course_id: 5, title: "First aid", video_type: "", duration: 0, free_preview: false, status: "enable", weigh: 1 },
  ];
  useNavTabs.setState({
    authNode: new Map([
      ["/admin/course/course", ["/admin/course/course/add", "/admin/course/course/edit"]],
      ["/admin/course/lesson", ["/admin/course/lesson/add", "/admin/course/lesson/edit", "/admin/course/lesson/del"]],
    ]),
  });
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    const params = paramsOf(config);
    switch (config.url) {
      case "/admin/course/course/index":
        return envelope(params.select ? { list: [{ id: 5, title: COURSE.title }], total: 1 } : { list: [COURSE], total: 1 });
      case "/admin/course/course/edit":
        return envelope(config.method === "get" ? { row: { ...COURSE, id: Number(params.id) } } : null);
      case "/admin/course/category/index":
        return envelope({ list: [{ id: 2, pid: 0, title: "Safety", title_en: "Safety" }], total: 1 });
      case "/admin/course/course/add":
        return envelope({ id: 9 });
      case "/admin/course/lesson/index": {
        const course = params["search[0][val]"];
        return envelope({ list: lessonRows.filter((r) => r.course_id === course), total: lessonRows.length });
      }
      case "/admin/course/lesson/edit":
        return envelope(config.method === "get" ? { row: { ...lessonRows.find((r) => r.id === Number(params.id)), content: "<p>x</p>", video: { url: "", type: "", size: 0, duration: 0, name: "" }, attachments: [] } } : null);
      case "/admin/course/lesson/add": {
        const data = config.data as Record<string, unknown>;
        lessonRows.push({ id: 13, course_id: data.course_id, title: data.title, video_type: "", duration: 0, free_preview: false, status: "enable", weigh: 0 });
        return envelope({ id: 13 });
      }
      case "/admin/course/lesson/del":
        return envelope({ count: 1 });
      default:
        return envelope({ list: [], total: 0 });
    }
  }) as never);
});

afterEach(() => vi.mocked(request).mockReset());

async function editCourse() {
  renderScreen(courses);
  await screen.findByText("Safety basics");
  await userEvent.click(screen.getByRole("button", { name: "Edit row 5" }));
  const dialog = await screen.findByRole("dialog", { name: /Edit/ });
  const list = await within(dialog).findByRole("list", { name: "Lessons" });
  return { dialog, list };
}

// Two forms (the course's and a lesson's) open at once are slow to render on a busy machine.
describe("a course's lessons in its form", { timeout: 60_000 }, () => {
  it("lists the lessons in order with their type, and adds one with the lesson form preset to this course", async () => {
    const { dialog, list } = await editCourse();
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([expect.stringMatching(/^1Fire exits \(Video\)Free preview0:20/), expect.stringMatching(/^2First aid \(Text\)/)]);

    await userEvent.click(within(dialog).getByRole("button", { name: "Add lesson" }));
    const lessonForm = await screen.findByRole("dialog", { name: "Add · Lessons" });
    // The course is chosen already: the lesson's course select shows this course.
    await waitFor(() => expect(within(lessonForm).getByRole("combobox", { name: "Course" })).toHaveValue("Safety basics"));
    await userEvent.type(within(lessonForm).getByRole("textbox", { name: "Title" }), "Evacuation drill");
    await userEvent.click(within(lessonForm).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(callsTo("/admin/course/lesson/add")).toHaveLength(1));
    expect(callsTo("/admin/course/lesson/add")[0]!.data).toMatchObject({ course_id: 5, title: "Evacuation drill" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Add · Lessons" })).toBeNull());
    // Saving the lesson saved the lesson only, and the course's form lists it now.
    expect(callsTo("/admin/course/course/edit", "post")).toHaveLength(0);
    await waitFor(() => expect(within(within(dialog).getByRole("list", { name: "Lessons" })).getAllByRole("listitem")).toHaveLength(3));
    expect(within(dialog).getByRole("list", { name: "Lessons" })).toHaveTextContent("Evacuation drill");
    expect(screen.getByRole("dialog", { name: /Edit · Courses/ })).toBeTruthy();
  });

  it("edits a lesson in the lessons form and deletes one after asking", async () => {
    const { dialog } = await editCourse();
    await userEvent.click(within(dialog).getByRole("button", { name: "Edit lesson First aid" }));
    const lessonForm = await screen.findByRole("dialog", { name: "Edit · Lessons" });
    const title = await within(lessonForm).findByRole("textbox", { name: "Title" });
    expect(title).toHaveValue("First aid");
    await userEvent.clear(title);
    await userEvent.type(title, "First aid kit");
    await userEvent.click(within(lessonForm).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/course/lesson/edit", "post")).toHaveLength(1));
    expect(callsTo("/admin/course/lesson/edit", "post")[0]!.data).toMatchObject({ id: 12, title: "First aid kit", course_id: 5 });
    expect(callsTo("/admin/course/course/edit", "post")).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole("button", { name: "Delete lesson Fire exits" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm).toHaveTextContent('Delete the lesson "Fire exits"?');
    await userEvent.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(callsTo("/admin/course/lesson/del")).toHaveLength(1));
    expect(paramsOf(callsTo("/admin/course/lesson/del")[0]!).ids).toEqual([11]);
  });

  it("offers no lesson buttons to an admin without the lesson rules", async () => {
    useNavTabs.setState({ authNode: new Map([["/admin/course/course", ["/admin/course/course/edit"]]]) });
    const { dialog, list } = await editCourse();
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(within(dialog).queryByRole("button", { name: "Add lesson" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: /^(Edit|Delete) lesson/ })).toBeNull();
  });

  it("tells a new course's author the lessons come after the first save, and keeps the form open for them", async () => {
    renderScreen(courses);
    await screen.findByText("Safety basics");
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    const dialog = await screen.findByRole("dialog", { name: /Add · Courses/ });
    expect(within(dialog).getByText(/Lessons can be added here once the course is saved/)).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "Add lesson" })).toBeNull();
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Title" }), "New course");
    await chooseOption(within(dialog).getByRole("combobox", { name: "Category" }), "Safety");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/course/course/add")).toHaveLength(1));
    // The saved course's form, open for its lessons.
    const edit = await screen.findByRole("dialog", { name: /Edit · Courses/ });
    await waitFor(() => expect(paramsOf(callsTo("/admin/course/course/edit", "get").at(-1)!).id).toBe(9));
    expect(await within(edit).findByRole("button", { name: "Add lesson" })).toBeTruthy();
    expect(within(edit).getByText("No lessons yet.")).toBeTruthy();
    expect(within(edit).getByRole("textbox", { name: "Title" })).toHaveValue("Safety basics");
  });
});
