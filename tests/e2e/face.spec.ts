import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type APIRequestContext, type Browser } from "@playwright/test";
import { faceCanvas, type FacePicture } from "../helpers/faces.ts";
import { ExamScreen } from "./pages/exam.ts";
import { expect, openMember, startServer, test } from "./server.ts";

// The service worker stays on here (the config blocks it): its browsers with a fake camera load the face model as members' do (not yet measured without the worker).
test.use({ serviceWorkers: "allow" });

/**
 * Face checks in the real app with Chromium's fake camera. The camera is fed from a
 * .y4m video written here from the library's sample photo (@napi-rs/canvas, no ffmpeg): the
 * demo member enrols a reference photo in the member center and passes the check before a room
 * with a face rule; then, with nobody in front of the camera, the check fails and the rule
 * (stop after one failure) ends the attempt on the server.
 */

const W = 640;
const H = 480;

/** A short 4:2:0 Y4M clip of one still picture (Chromium loops it). */
async function writeY4m(file: string, picture: FacePicture): Promise<void> {
  const canvas = await faceCanvas(picture, { w: W, h: H });
  const rgba = canvas.getContext("2d").getImageData(0, 0, W, H).data;
  const y = Buffer.alloc(W * H);
  const u = Buffer.alloc((W / 2) * (H / 2));
  const v = Buffer.alloc((W / 2) * (H / 2));
  for (let j = 0; j < H; j++) {
    for (let i = 0; i < W; i++) {
      const k = (j * W + i) * 4;
      const r = rgba[k]!;
      const g = rgba[k + 1]!;
      const b = rgba[k + 2]!;
      y[j * W + i] = Math.max(0, Math.min(255, Math.round(0.299 * r + 0.587 * g + 0.114 * b)));
      if (j % 2 === 0 && i % 2 === 0) {
        const c = (j / 2) * (W / 2) + i / 2;
        u[c] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
        v[c] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
      }
    }
  }
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, u, v]);
  const frames = Array.from({ length: 10 }, () => frame);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...frames]));
}

function launchWithCamera(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}

async function adminApi(request: APIRequestContext, base: string) {
  const login = await (await request.post(`${base}/admin/index/login`, { data: { username: "admin", password: "admin123456", keep: false } })).json();
  const headers = { batoken: login.data.userInfo.token as string };
  return {
    post: async (url: string, data: unknown) => (await request.post(`${base}${url}`, { headers, data })).json(),
    get: async (url: string) => (await request.get(`${base}${url}`, { headers })).json(),
  };
}

test("a member enrols with the camera and passes the check before a room with a face rule; with no face in the camera the rule stops the attempt", async ({ request }) => {
  test.setTimeout(300_000);
  const server = await startServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "face-e2e-"));
  const browsers: Browser[] = [];
  try {
    const base = server.url;
    const faceVideo = path.join(dir, "face.y4m");
    const emptyVideo = path.join(dir, "empty.y4m");
    await writeY4m(faceVideo, "a");
    await writeY4m(emptyVideo, "none");

    // Staff: a rule (check before the start; one failure stops the attempt) on two rooms.
    const admin = await adminApi(request, base);
    const rule = await admin.post("/admin/org/faceRule/add", { name: "Strict start", before_start: true, threshold: 0.6, max_failures: 1, action: "stop" });
    expect(rule.code, rule.msg).toBe(1);
    const papers = await admin.get("/admin/exam/paper/index?limit=10");
    const paperId = papers.data.list[0].id as number;
    const now = Math.floor(Date.now() / 1000);
    const rooms: number[] = [];
    for (const title of ["Face room A", "Face room B"]) {
      const room = await admin.post("/admin/exam/room/add", { paper_id: paperId, title, start_time: now - 60, end_time: now + 3600, duration: 600, attempts_allowed: 1, pass_score: 0, face_rule_id: rule.data.id });
      expect(room.code, room.msg).toBe(1);
      rooms.push(room.data.id as number);
    }

    // The member, with a face in the camera: enrol, then room A opens after the check.
    const withFace = await launchWithCamera(faceVideo);
    browsers.push(withFace);
    const page = await (await withFace.newContext({ baseURL: base })).newPage();
    await openMember(page, { path: "/user/account/face" });
    await expect(page.getByRole("heading", { name: "人脸照片" })).toBeVisible();
    await expect(page.getByText("尚无参考照片。")).toBeVisible();
    const take = page.getByRole("button", { name: "拍照" });
    await expect(take).toBeEnabled({ timeout: 30_000 });
    await take.click();
    await expect(page.getByText("你的参考照片已保存。")).toBeVisible({ timeout: 90_000 });
    await expect(page.getByText("已有参考照片。重新拍摄将替换它。")).toBeVisible();

    const exam = new ExamScreen(page);
    await exam.openOfficialRooms();
    await exam.enterRoom("Face room A");
    // The introduction (time, questions, points, attempts left) starts nothing until its start button.
    await exam.startFromIntroduction();
    await expect(page).toHaveURL(/\/exam\/my_test_detail\?official=/);
    await expect(page.getByRole("heading", { name: "开考前身份核验" })).toBeVisible();
    // The server passes the snapshot and the questions open.
    await expect(exam.grid).toBeVisible({ timeout: 90_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Face room A" })).toBeVisible();

    // Nobody in front of the camera: room B's check fails and the attempt is stopped.
    const empty = await launchWithCamera(emptyVideo);
    browsers.push(empty);
    const page2 = await (await empty.newContext({ baseURL: base })).newPage();
    await openMember(page2);
    const exam2 = new ExamScreen(page2);
    await exam2.openOfficialRooms();
    await exam2.enterRoom("Face room B");
    // The introduction (time, questions, points, attempts left) starts nothing until its start button.
    await exam2.startFromIntroduction();
    await expect(page2).toHaveURL(/\/exam\/my_test_detail\?official=/);
    // The stop takes the member to the attempt's result; the server closed it.
    await expect(page2).toHaveURL(/\/exam\/examResult\?uuid=/, { timeout: 90_000 });
    const review = await admin.get(`/admin/exam/faceReview/index?limit=50`);
    const byRoom = (roomId: number) => review.data.list.find((r: { room_id: number }) => r.room_id === roomId);
    expect(byRoom(rooms[0]!)).toMatchObject({ face_flag: "none", face_failures: 0, checks: 1 });
    expect(byRoom(rooms[1]!)).toMatchObject({ face_flag: "stopped", face_failures: 1, status: "submitted" });
    const timeline = await admin.get(`/admin/exam/faceReview/timeline?id=${byRoom(rooms[1]!).id}`);
    expect(timeline.data.checks.map((c: { verdict: string }) => c.verdict)).toEqual(["no_face"]);
    const passed = await admin.get(`/admin/exam/faceReview/timeline?id=${byRoom(rooms[0]!).id}`);
    expect(passed.data.checks[0].verdict).toBe("pass");
    expect(passed.data.checks[0].similarity).toBeGreaterThanOrEqual(0.6);
    // The device's own look (Human in the browser, WASM backend, models from /face-models/) went along as a hint.
    expect(passed.data.checks[0].deviceVerdict).toBe("one_face");
    expect(timeline.data.checks[0].deviceVerdict).toBe("no_face");
  } finally {
    for (const b of browsers) await b.close().catch(() => undefined);
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
