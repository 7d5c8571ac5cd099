import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/** Title keys with this prefix are translated (SPEC §2). */
export const PAGE_TITLE_PREFIX = "pagesTitle.";

export const PAGE_TITLES: Record<string, MessageDescriptor> = {
  "pagesTitle.home": msg`Home`,
  "pagesTitle.admin": msg`Admin`,
  "pagesTitle.login": msg`Login`,
  "pagesTitle.notFound": msg`Page not found`,
  "pagesTitle.noPower": msg`No access permission`,
  "pagesTitle.loading": msg`Loading`,
  "pagesTitle.user": msg`Member center`,
  "pagesTitle.userLogin": msg`Member login`,
};

export type RouteTitle = string | MessageDescriptor;

/** The document title: the route's title (translated when it is a page-title key or a
 * descriptor), then " - siteName" when a site name is configured. */
export function documentTitle(title: RouteTitle | undefined, i18n: I18n, siteName: string): string {
  let text = "";
  if (typeof title === "string") {
    const known = title.startsWith(PAGE_TITLE_PREFIX) ? PAGE_TITLES[title] : undefined;
    text = known ? i18n._(known) : title;
  } else if (title) {
    text = i18n._(title);
  }
  if (!siteName) return text;
  return text ? `${text} - ${siteName}` : siteName;
}
