/**
 * Runs `run` once the current screen has been painted: after the next frame, then a task (so
 * not in the frame's way). A hidden tab paints no frame, so `latestMs` at most. Answers a
 * cancel function (an effect's cleanup).
 */
export function afterFirstPaint(run: () => void, latestMs = 500): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  let afterFrame: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    afterFrame = setTimeout(once, 0);
  });
  const latest = setTimeout(once, latestMs);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(afterFrame);
    clearTimeout(latest);
  };
}
