import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CAPTCHA_CHARSET,
  CAPTCHA_HEIGHT,
  CAPTCHA_TTL,
  CAPTCHA_WIDTH,
  clicksMatch,
  consumeClickCaptcha,
  parseClickInfo,
  setCaptchaObserver,
  type CaptchaBox,
} from "../../src/server/auth/captcha.ts";
import { captchaRoutes } from "../../src/server/modules/common/captcha.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const headers = { "think-lang": "en" };

/** Width and height of a PNG, read from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const center = (b: CaptchaBox) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });
/** Clicks given in image pixels, as a browser showing the image at w x h reports them. */
const info = (points: { x: number; y: number }[], w: number = CAPTCHA_WIDTH, h: number = CAPTCHA_HEIGHT) =>
  `${points.map((p) => `${Math.round((p.x * w) / CAPTCHA_WIDTH)},${Math.round((p.y * h) / CAPTCHA_HEIGHT)}`).join("-")};${w};${h}`;

describe("click captcha", () => {
  let t: TestApp;
  beforeAll(async () => {
    // app.ts registers the routes; registered here too only when it does not (yet).
    t = await createTestApp({
      prepare: async (app) => {
        if (!app.hasRoute({ method: "GET", url: "/api/common/clickCaptcha" })) await app.register(captchaRoutes);
      },
    });
  });
  afterAll(() => t.close());
  afterEach(() => setCaptchaObserver(null));

  const create = async (id = randomUUID()) => {
    const res = await t.app.inject({ method: "GET", url: `/api/common/clickCaptcha?id=${id}`, headers });
    return res.json();
  };
  const check = (payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: "/api/common/checkClickCaptcha", headers, payload }).then((r) => r.json());
  const row = async (id: string) =>
    (await t.database.db.query<{ answer: CaptchaBox[]; verified: boolean; expire_time: number; create_time: number }>(
      "select answer, verified, expire_time, create_time from captcha where id = $1",
      [id],
    )).rows[0];
  const answerOf = async (id: string) => {
    const stored = await row(id);
    expect(stored).toBeDefined();
    return stored!.answer;
  };
  const fresh = async () => {
    const id = randomUUID();
    await create(id);
    return { id, answer: await answerOf(id) };
  };

  it("draws a 350x200 PNG with 2 unique target characters and reveals no positions", async () => {
    const id = randomUUID();
    const body = await create(id);
    expect(body.code).toBe(1);
    const data = body.data;
    expect(Object.keys(data).sort()).toEqual(["base64", "height", "id", "text", "width"]);
    expect(data).toMatchObject({ id, width: 350, height: 200 });
    expect(data.base64).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(data.base64.slice("data:image/png;base64,".length), "base64");
    expect(pngSize(png)).toEqual({ width: 350, height: 200 });
    expect(png.length).toBeGreaterThan(5_000); // noise, not a blank image

    expect(data.text).toHaveLength(2);
    expect(new Set(data.text).size).toBe(2);
    for (const c of data.text) {
      expect(c).toHaveLength(1);
      expect(CAPTCHA_CHARSET).toContain(c);
    }
    // Exactly the keys above (checked): the characters are plain strings, no coordinates anywhere.
    expect(JSON.stringify(body)).not.toMatch(/"(x|y|w|h|answer|points?|boxes?|pos(ition)?s?)"/);

    const stored = await row(id);
    expect(stored?.verified).toBe(false);
    expect(stored?.answer).toHaveLength(2);
    expect(stored!.expire_time - stored!.create_time).toBe(CAPTCHA_TTL);
    for (const b of stored!.answer) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(350);
      expect(b.y + b.h).toBeLessThanOrEqual(200);
      expect(b.w).toBeGreaterThan(10);
      expect(b.h).toBeGreaterThan(10);
    }
    const [a, b] = stored!.answer as [CaptchaBox, CaptchaBox];
    const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
    expect(apart).toBe(true);
  });

  it("rejects an id that is not a 36-char uuid", async () => {
    for (const bad of ["", "short", "x".repeat(36), `${randomUUID()}0`, randomUUID().toUpperCase()]) {
      const res = await t.app.inject({ method: "GET", url: `/api/common/clickCaptcha?id=${encodeURIComponent(bad)}`, headers });
      expect(res.json()).toMatchObject({ code: 0, msg: "Invalid captcha id" });
    }
    expect((await check({ id: "nope", info: "1,1-2,2;350;200" })).code).toBe(0);
  });

  it("replaces the captcha when the same id asks again", async () => {
    const id = randomUUID();
    await create(id);
    const first = JSON.stringify(await answerOf(id));
    await create(id);
    const { rows } = await t.database.db.query("select id from captcha where id = $1", [id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(await answerOf(id))).not.toBe(first); // a new drawing (random boxes)
  });

  it("accepts the right clicks at the image size, keeps the captcha verified for the login", async () => {
    const { id, answer } = await fresh();
    const clicks = info(answer.map(center));
    expect(await check({ id, info: clicks, unset: false })).toMatchObject({ code: 1, msg: "Verification is successful" });
    expect((await row(id))?.verified).toBe(true);
    // Checked once: a second check is refused, but the login can still consume it.
    expect(await check({ id, info: clicks, unset: false })).toMatchObject({ code: 0, msg: "The captcha has already been used, please get a new one" });
    expect(await consumeClickCaptcha(t.database.db, id, clicks)).toBe(true);
    expect(await row(id)).toBeUndefined();
  });

  it("accepts the right clicks on a smaller or larger display", async () => {
    for (const [w, h] of [
      [175, 100],
      [700, 400],
      [300, 171.43],
    ] as const) {
      const { id, answer } = await fresh();
      expect((await check({ id, info: info(answer.map(center), w, h), unset: true })).code).toBe(1);
    }
  });

  it("accepts clicks near the box edge (tolerance) and refuses clicks well outside", async () => {
    const { id, answer } = await fresh();
    const [a, b] = answer as [CaptchaBox, CaptchaBox];
    // Click data has no negative numbers: stay inside the image.
    const parsed = parseClickInfo(`${Math.max(0, a.x - 2)},${Math.max(0, a.y - 2)}-${b.x + b.w + 2},${b.y + b.h + 2};350;200`)!;
    expect(clicksMatch(answer, 350, 200, parsed)).toBe(true);
    const farX = a.x >= 30 ? a.x - 20 : a.x + a.w + 20;
    const far = parseClickInfo(`${farX},${a.y}-${b.x},${b.y};350;200`)!;
    expect(clicksMatch(answer, 350, 200, far)).toBe(false);
    await t.database.db.query("delete from captcha where id = $1", [id]);
  });

  it("rejects the right characters in the wrong order and deletes the captcha", async () => {
    const { id, answer } = await fresh();
    const reversed = info(answer.map(center).reverse());
    expect(await check({ id, info: reversed, unset: false })).toMatchObject({ code: 0, msg: "Wrong area clicked, try again" });
    expect(await row(id)).toBeUndefined();
    // One try: even the right clicks are refused afterwards.
    expect(await check({ id, info: info(answer.map(center)) })).toMatchObject({ code: 0, msg: "The captcha does not exist, please get a new one" });
  });

  it("rejects clicks in the wrong area", async () => {
    const { id, answer } = await fresh();
    const [a] = answer as [CaptchaBox];
    // Left of the first box, far from it.
    const miss = { x: a.x > 60 ? a.x - 40 : a.x + a.w + 40, y: a.y + a.h / 2 };
    expect(await check({ id, info: info([miss, center(answer[1]!)]) })).toMatchObject({ code: 0, msg: "Wrong area clicked, try again" });
    expect(await row(id)).toBeUndefined();
  });

  it("rejects an expired captcha", async () => {
    const { id, answer } = await fresh();
    await t.database.db.query("update captcha set expire_time = $2 where id = $1", [id, Math.floor(Date.now() / 1000) - 1]);
    expect(await check({ id, info: info(answer.map(center)) })).toMatchObject({ code: 0, msg: "The captcha has expired, please get a new one" });
    expect(await row(id)).toBeUndefined();
  });

  it("rejects malformed info and deletes the captcha", async () => {
    for (const bad of ["", "1,2;350;200", "1,2-3,4", "1,2-3,4;0;200", "1,2-3,4;350;-1", "a,b-c,d;350;200", "1,2-3,4-5,6;350;200", "1,2-3,4;350;200;9", 42, null]) {
      const { id } = await fresh();
      const body = await check({ id, info: bad });
      expect(body.code).toBe(0);
      expect(body.msg).toMatch(/malformed|Wrong area/);
      expect(await row(id)).toBeUndefined();
    }
  });

  it("rejects an unknown captcha", async () => {
    expect(await check({ id: randomUUID(), info: "1,1-2,2;350;200" })).toMatchObject({ code: 0, msg: "The captcha does not exist, please get a new one" });
  });

  it("deletes the captcha right away with unset", async () => {
    const { id, answer } = await fresh();
    const clicks = info(answer.map(center));
    expect((await check({ id, info: clicks, unset: true })).code).toBe(1);
    expect(await row(id)).toBeUndefined();
    expect((await check({ id, info: clicks, unset: true })).code).toBe(0);
    expect(await consumeClickCaptcha(t.database.db, id, clicks)).toBe(false);
  });

  it("consumeClickCaptcha is single use and deletes the row in every case", async () => {
    const db = t.database.db;
    const ok = await fresh();
    const clicks = info(ok.answer.map(center));
    expect(await consumeClickCaptcha(db, ok.id, clicks)).toBe(true);
    expect(await consumeClickCaptcha(db, ok.id, clicks)).toBe(false);

    const wrong = await fresh();
    expect(await consumeClickCaptcha(db, wrong.id, info(wrong.answer.map(center).reverse()))).toBe(false);
    expect(await row(wrong.id)).toBeUndefined();

    const junk = await fresh();
    expect(await consumeClickCaptcha(db, junk.id, "junk")).toBe(false);
    expect(await row(junk.id)).toBeUndefined();

    const old = await fresh();
    await db.query("update captcha set expire_time = 0 where id = $1", [old.id]);
    expect(await consumeClickCaptcha(db, old.id, info(old.answer.map(center)))).toBe(false);
    expect(await row(old.id)).toBeUndefined();

    expect(await consumeClickCaptcha(db, "not-a-uuid", clicks)).toBe(false);
  });

  it("purges expired captchas when a new one is drawn", async () => {
    const { id } = await fresh();
    await t.database.db.query("update captcha set expire_time = 1 where id = $1", [id]);
    await create();
    expect(await row(id)).toBeUndefined();
  });

  it("reports the target centres to the test observer only while one is set", async () => {
    const seen: { id: string; centers: { x: number; y: number }[]; width: number; height: number }[] = [];
    setCaptchaObserver((id, centers, width, height) => seen.push({ id, centers, width, height }));
    const { id, answer } = await fresh();
    expect(seen).toEqual([{ id, centers: answer.map(center), width: 350, height: 200 }]);
    expect((await check({ id, info: info(seen[0]!.centers) })).code).toBe(1);
    setCaptchaObserver(null);
    await create();
    expect(seen).toHaveLength(1);
  });

  it("answers in the requested language", async () => {
    const en = await t.app.inject({ method: "GET", url: "/api/common/clickCaptcha?id=bad", headers: { "think-lang": "en" } });
    expect(en.json()).toMatchObject({ code: 0, msg: "Invalid captcha id" });
    const zh = await t.app.inject({ method: "GET", url: "/api/common/clickCaptcha?id=bad", headers: { "think-lang": "zh-cn" } });
    expect(zh.json().code).toBe(0);
    expect(zh.json().msg).toBeTruthy();
    expect(zh.json().msg).not.toBe("Invalid captcha id");

    const { id, answer } = await fresh();
    const wrong = info(answer.map(center).reverse());
    const zhWrong = await t.app.inject({ method: "POST", url: "/api/common/checkClickCaptcha", headers: { "think-lang": "zh-cn" }, payload: { id, info: wrong } });
    expect(zhWrong.json().code).toBe(0);
    expect(zhWrong.json().msg).not.toBe("Wrong area clicked, try again");
  });
});
