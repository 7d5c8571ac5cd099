import { beforeAll, describe, expect, it } from "vitest";
import { judgeSnapshot } from "../../src/server/modules/face/checks.ts";
import { analyseImage, warmFaceEngine } from "../../src/server/modules/face/engine.ts";
import { facePicture } from "../helpers/faces.ts";

/**
 * The server's own face check on real pictures (the library's sample photo, composed in the test):
 * the same person passes, no face / two faces / another person fail, each with its reason.
 */

let reference: number[];

beforeAll(async () => {
  await warmFaceEngine();
  const seen = await analyseImage(await facePicture("a"));
  expect(seen.faces).toHaveLength(1);
  reference = seen.faces[0]!.embedding;
  expect(reference.length).toBeGreaterThan(100);
}, 120_000);

const rule = { threshold: 0.6, liveness: false };

describe("the server's face check (Human, WASM backend)", () => {
  it("passes the same person in another framing", async () => {
    const judged = await judgeSnapshot(await facePicture("aAgain"), reference, rule);
    expect(judged.verdict).toBe("pass");
    expect(judged.faces).toBe(1);
    expect(judged.similarity!).toBeGreaterThanOrEqual(0.6);
  });

  it("finds no face in a picture without one", async () => {
    const judged = await judgeSnapshot(await facePicture("none"), reference, rule);
    expect(judged).toMatchObject({ verdict: "no_face", faces: 0, similarity: null });
  });

  it("refuses two faces", async () => {
    const judged = await judgeSnapshot(await facePicture("two"), reference, rule);
    expect(judged).toMatchObject({ verdict: "many_faces", faces: 2 });
  });

  it("tells another person apart", async () => {
    const judged = await judgeSnapshot(await facePicture("b"), reference, rule);
    expect(judged.verdict).toBe("mismatch");
    expect(judged.similarity!).toBeLessThan(0.6);
  });

  it("answers bytes that are no picture with bad_image, and a face without a reference with no_reference", async () => {
    expect((await judgeSnapshot(Buffer.from("not a jpeg at all"), reference, rule)).verdict).toBe("bad_image");
    expect((await judgeSnapshot(await facePicture("a"), null, rule)).verdict).toBe("no_reference");
  });

  it("applies the liveness requirement with the liveness model's score", async () => {
    const judged = await judgeSnapshot(await facePicture("aAgain"), reference, { threshold: 0.6, liveness: true });
    // The sample is a photo of a live person: the model's score decides, and it is recorded.
    expect(judged.live).not.toBeNull();
    expect(judged.verdict).toBe(judged.live! >= 0.5 ? "pass" : "not_live");
  });
});
