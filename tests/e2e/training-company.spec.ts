import ExcelJS from "exceljs";
import { PDFDocument } from "pdf-lib";
import type { APIRequestContext } from "@playwright/test";
import { AdminCrud } from "./pages/adminCrud.ts";
import { ExamScreen } from "./pages/exam.ts";
import { ProgressReportScreen } from "./pages/progressReport.ts";
import { SheetImportDialog } from "./pages/sheetImport.ts";
import { expect, logInMember, openAdmin, test } from "./server.ts";

/**
 * Issue 41's chain, as a training company meets it: staff download the member template and
 * import 50 trainees with invitations into a classroom of their own (the dry run shown, then
 * committed); an official room assigned to that classroom has a certificate template. One
 * trainee opens their invitation link from the outbox in a fresh browser, sets a password, logs
 * in, sits the room and passes, and downloads the certificate's PDF; the classroom's progress
 * report in the back office shows them as passed and the other 49 as not started. The worker's
 * server is shared: the classroom, bank, paper, room and members are this spec's own.
 */

const MEMBERS = 50;
/** The trainee who takes the invitation (1-based row of the file). */
const CHOSEN = 7;

/** Staff's own API calls (the room and its certificate template are set up this way). */
async function adminApi(request: APIRequestContext) {
  const login = await (await request.post("/admin/index/login", { data: { username: "admin", password: "admin123456", keep: false } })).json();
  expect(login.code, login.msg).toBe(1);
  const headers = { batoken: login.data.userInfo.token as string, "think-lang": "en" };
  return async <T = { id: number }>(url: string, data: unknown): Promise<T> => {
    const body = await (await request.post(url, { headers, data })).json();
    expect(body.code, `${url}: ${body.msg}`).toBe(1);
    return body.data as T;
  };
}

test("staff import 50 invited members; one sets a password from the outbox, passes an assigned room, downloads the certificate; the classroom report shows it", async ({
  page,
  browser,
  request,
  server,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const tag = `tc${Date.now().toString(36)}`;
  const classroom = `Classroom ${tag}`;
  const roomTitle = `Safety exam ${tag}`;
  const certificateTitle = `Safety certificate ${tag}`;
  const stem = `${tag} 灭火器的压力指针在哪个区域表示可以使用？`;
  const trainee = (n: number) => ({ username: `${tag}_${String(n).padStart(2, "0")}`, nickname: `Trainee ${n}`, email: `${tag}.${n}@example.com` });

  // Set-up through the API: a classroom, an exam-only bank with one question, a paper, an official
  // room open now and assigned to the classroom, and the room's certificate template.
  const post = await adminApi(request);
  const classroomId = (await post("/admin/org/classroom/add", { name: classroom })).id;
  const bank = (await post("/admin/exam/classify/add", { title: `Bank ${tag}`, kind: "exam" })).id;
  const options = ["绿色区域", "红色区域", "黄色区域"].map((text, i) => ({ key: "ABC"[i]!, text }));
  const question = (await post("/admin/exam/question/add", { classify_id: bank, type: "single", stem, options, answer: "A", analysis: "", difficulty: 1, score: 10, weigh: 0, status: "enable" })).id;
  const paper = (await post("/admin/exam/paper/add", { title: `Paper ${tag}`, total_score: 10, pass_score: 6, duration: 600 })).id;
  await post("/admin/exam/paperRow/add", { paper_id: paper, kind: "fixed", question_id: question, score: 10 });
  const now = Math.floor(Date.now() / 1000);
  const room = (
    await post("/admin/exam/room/add", {
      title: roomTitle,
      paper_id: paper,
      start_time: now - 3600,
      end_time: now + 7 * 86400,
      duration: 600,
      attempts_allowed: 2,
      pass_score: 6,
      review_policy: "submitted",
      classroom_ids: [classroomId],
      confirm_withhold: true,
    })
  ).id;
  await post("/admin/exam/certificateTemplate/add", { room_id: room, title: certificateTitle, wording: "{name} 通过了「{title}」。", text_color: "#1f2937", accent_color: "#b45309" });

  // Staff import the trainees through the member list's import dialog, from the template's own header.
  await openAdmin(page, { lang: "en", path: "/admin/user/user" });
  const crud = new AdminCrud(page, "en");
  const importer = new SheetImportDialog(page, crud.dialog, "member-import-counts");
  await importer.open();
  const template = new ExcelJS.Workbook();
  await template.xlsx.load((await importer.downloadTemplate("xlsx")) as unknown as ExcelJS.Buffer);
  const header = (template.worksheets[0]!.getRow(1).values as unknown[]).slice(1).map(String);
  const column = (words: RegExp) => {
    const at = header.findIndex((h) => words.test(h));
    expect(at, `${words} in ${header.join(" | ")}`).toBeGreaterThanOrEqual(0);
    return at;
  };
  const at = { username: column(/^Username$/), nickname: column(/^Nickname$/), email: column(/^Email$/), classrooms: column(/^Classrooms/), invite: column(/^Send an invitation/) };
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("members");
  sheet.addRow(header);
  for (let n = 1; n <= MEMBERS; n++) {
    const row: string[] = header.map(() => "");
    const who = trainee(n);
    row[at.username] = who.username;
    row[at.nickname] = who.nickname;
    row[at.email] = who.email;
    row[at.classrooms] = classroom;
    row[at.invite] = "yes";
    sheet.addRow(row);
  }
  await importer.choose(`trainees-${tag}.xlsx`, Buffer.from(await book.xlsx.writeBuffer()));

  // The dry run: 50 to add with an invitation email each, nothing written yet.
  await importer.check();
  await expect(importer.counts).toHaveText(`To add: ${MEMBERS}; to update: 0; unchanged: 0; rows with problems: 0.`);
  await expect(importer.previewRow(trainee(1).username)).toContainText("AddInvitation email");
  await expect(importer.confirmButton).toHaveText(`Import: add ${MEMBERS}, update 0`);
  // Committed: all of them, each invitation kept in the outbox (this server has no mail server, and says so).
  await importer.confirm();
  await expect(importer.done).toContainText(`${MEMBERS} members imported; invitations sent: 0.`);
  await expect(importer.done).toContainText(`${MEMBERS} invitations were not sent: no mail server or SMS provider is set, so they were only kept in the outbox table (outbox_message).`);
  await importer.close();
  const chosen = trainee(CHOSEN);

  // The export for import gives them back: a file download (streamed), in the import's layout.
  await page.getByRole("button", { name: "Export for import", exact: true }).click();
  const exporting = page.waitForEvent("download");
  await crud.dialog.getByRole("button", { name: "Export as .xlsx" }).click();
  const exported = await exporting;
  expect(exported.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const back = new ExcelJS.Workbook();
  await back.xlsx.load(Buffer.concat(await (await exported.createReadStream()).toArray()) as unknown as ExcelJS.Buffer);
  // Row n at [n] (no row 0), each row's cell n at [n] (no cell 0); a cell left empty is not written.
  const exportedRows = Array.from(back.worksheets[0]!.getSheetValues(), (r) => (Array.isArray(r) ? Array.from(r.slice(1), (c) => String(c ?? "")) : []));
  expect(exportedRows[1]).toEqual(header);
  const exportedChosen = exportedRows.find((r) => r[at.username] === chosen.username);
  expect(exportedChosen?.[at.nickname]).toBe(chosen.nickname);
  expect(exportedChosen?.[at.classrooms]).toBe(classroom);
  expect(exportedRows.filter((r) => r[at.classrooms] === classroom)).toHaveLength(MEMBERS);
  await expect(crud.dialog).toBeHidden();
  await crud.quickFind(chosen.username);
  await expect(crud.row(chosen.username)).toHaveCount(1);
  await expect(crud.row(chosen.username)).toContainText(chosen.nickname);

  // The chosen trainee's invitation, as the outbox kept it (no mail server is set).
  const mail = server.lastOutboxMessage(chosen.email);
  expect(mail.channel).toBe("email");
  const link = /(https?:\/\/\S+\/invitation#token=[A-Za-z0-9_-]+)/.exec(mail.body)?.[1];
  expect(link, mail.body).toBeDefined();
  expect(link!.startsWith(`${baseURL}/invitation#token=`)).toBe(true);

  // In a fresh browser (zh-cn): set a password from the link, then log in with it.
  const own = await browser.newContext({ baseURL });
  const learner = await own.newPage();
  const password = "train-pass-123";
  await learner.goto(link!);
  await expect(learner.getByText(`欢迎，${chosen.nickname}`)).toBeVisible();
  await learner.getByLabel("新密码").fill(password);
  await learner.getByLabel("确认密码").fill(password);
  await learner.getByRole("button", { name: "设置密码" }).click();
  await expect(learner.getByText("密码已设置，请登录")).toBeVisible();
  await expect(learner).toHaveURL(/\/$|\/user\/login/);
  await logInMember(learner, chosen.username, password);
  await expect(learner).toHaveURL(/\/user\//);

  // They sit the room assigned to their classroom, answer rightly and pass.
  const exam = new ExamScreen(learner);
  await exam.openOfficialRooms();
  await exam.enterRoom(roomTitle);
  await exam.startFromIntroduction();
  const step = learner.getByRole("region", { name: "第 1 题，共 1 题" });
  await expect(step.locator("legend")).toContainText(stem);
  await step.getByRole("radio", { name: /绿色区域/ }).check();
  await exam.submit();
  await exam.confirmSubmit();
  await expect(learner).toHaveURL(/\/exam\/examResult\?uuid=/);
  await expect(learner.getByTestId("result-score")).toHaveText(/(^|\s)10\s*\/\s*10$/);

  // Their certificate, from their records: a PDF of one page.
  await learner.goto("/user/exam/certificate");
  const certificate = learner.getByTestId("certificate-row").filter({ hasText: certificateTitle });
  await expect(certificate).toBeVisible();
  const serial = (await certificate.getByRole("link").textContent())!.trim();
  const downloading = learner.waitForEvent("download");
  await certificate.getByRole("button", { name: "下载 PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`certificate-${serial}.pdf`);
  const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const pdf = await PDFDocument.load(bytes);
  expect(pdf.getPageCount()).toBe(1);
  expect(pdf.getTitle() ?? "").toContain(certificateTitle);
  await own.close();

  // The classroom's progress report: the chosen trainee passed, the other 49 have not started.
  const report = new ProgressReportScreen(page);
  await report.open();
  await report.choose("Classroom", classroom);
  await report.choose("Room or course", `Exam: ${roomTitle}`);
  expect(await report.figures(roomTitle)).toMatchObject({ Members: String(MEMBERS), "Not started": String(MEMBERS - 1), "In progress": "0", Failed: "0", "Passed / completed": "1" });
  // Those behind come first: the one who passed is on the last page, and alone under "Passed".
  await report.choose("Status", "Passed");
  await expect(report.summary).toHaveText("1 member");
  await expect(report.member(chosen.username)).toContainText(`${chosen.nickname} (${chosen.username})Passed10`);
  await report.choose("Status", "Not started");
  await expect(report.summary).toHaveText(`${MEMBERS - 1} members`);
  await expect(report.member(chosen.username)).toHaveCount(0);
});
