import { describe, expect, it } from "vitest";
import { adminScreens } from "../../src/client/admin/screens.ts";
import faceReview from "../../src/client/admin/exam/faceReview.ts";
import marking from "../../src/client/admin/exam/marking.ts";
import rooms from "../../src/client/admin/exam/rooms.ts";
import faceRules from "../../src/client/admin/org/faceRules.ts";
import { FACE_MODELS_CACHE, isFaceModelPath, isLazyAssetPath } from "../../src/client/pwa/caches.ts";

/** The back office's face screens are definitions the engine can render, and the service worker keeps the detector's files. */
describe("face rules and face review in the back office", () => {
  it("registers both screens under their menu rules' components", () => {
    expect(adminScreens["org/faceRule"]).toBeDefined();
    expect(adminScreens["exam/faceReview"]).toBeDefined();
  });

  it("validates a rule with the shared schema, and the room form picks a face rule", () => {
    expect(faceRules.path).toBe("org/faceRule");
    expect(faceRules.schema!.safeParse({ name: "x", before_start: false, every_minutes: 0, random_count: 0, threshold: 0.6 }).success).toBe(false);
    expect(faceRules.schema!.safeParse({ name: "x", before_start: true, every_minutes: 5, random_count: 1, threshold: 0.6, liveness: false, max_failures: 2, action: "stop", status: "enable" }).success).toBe(true);
    expect(rooms.form!.find((f) => f.field === "face_rule_id")).toMatchObject({ kind: "remoteSelect", remote: { path: "org/faceRule" } });
    expect(faceReview.rowActions!.map((a) => a.key)).toEqual(["timeline"]);
    // The marking queue lists attempts a face rule flagged, for whoever may read the face review.
    expect(marking.toolbarActions!.find((a) => a.key === "face")).toMatchObject({ action: "exam/faceReview/index" });
  });

  it("caches the detector's chunk, models and WASM once loaded, and nothing else under those names", () => {
    expect(FACE_MODELS_CACHE).toBe("face-models");
    expect(isLazyAssetPath("/assets/human.esm-CV52XQwb.js")).toBe(true);
    expect(isFaceModelPath("/face-models/faceres.bin")).toBe(true);
    expect(isFaceModelPath("/face-wasm/tfjs-backend-wasm-simd.wasm")).toBe(true);
    expect(isFaceModelPath("/face-models/../sw.js")).toBe(false);
    expect(isFaceModelPath("/api/user/face")).toBe(false);
  });
});
