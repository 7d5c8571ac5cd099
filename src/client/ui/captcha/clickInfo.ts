/** `"x1,y1-x2,y2;renderedWidth;renderedHeight"` (API.md): clicks on the image as displayed. */
export function formatClickInfo(points: readonly { x: number; y: number }[], renderedWidth: number, renderedHeight: number): string {
  const round = (n: number) => Math.round(n * 100) / 100;
  return `${points.map((p) => `${round(p.x)},${round(p.y)}`).join("-")};${round(renderedWidth)};${round(renderedHeight)}`;
}
