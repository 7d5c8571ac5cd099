import NProgress from "nprogress";
import "nprogress/nprogress.css";

// nprogress's own template gives its bar `role="bar"`, which is no ARIA role (axe: critical);
// the bar is decoration, hidden from assistive technology.
NProgress.configure({
  showSpinner: false,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: ".bar",
});

export { NProgress };
