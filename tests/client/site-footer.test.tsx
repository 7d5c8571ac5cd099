import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { SiteFooter } from "../../src/client/app/layouts/SiteFooter.tsx";
import { defaultSiteConfig, useSiteConfig } from "../../src/client/stores/siteConfig.ts";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});
afterEach(() => useSiteConfig.setState(defaultSiteConfig));

const footer = () =>
  render(
    <I18nProvider i18n={i18n}>
      <SiteFooter />
    </I18nProvider>,
  );

describe("the member pages' footer", () => {
  it("names the site as the back office set it, and shows its record number linked to the registry", () => {
    useSiteConfig.getState().dataFill({ siteName: "Acme Training", recordNumber: "京ICP备12345678号" });
    footer();
    expect(screen.getByRole("contentinfo")).toHaveTextContent("Acme Training — courses and exams, online and offline");
    expect(screen.getByRole("link", { name: "京ICP备12345678号" })).toHaveAttribute("href", "https://beian.miit.gov.cn/");
    // In a new tab, without giving the registry a handle on this page.
    expect(screen.getByRole("link", { name: "京ICP备12345678号" })).toHaveAttribute("target", "_blank");
    expect(screen.getByRole("link", { name: "京ICP备12345678号" }).getAttribute("rel")).toContain("noopener");
  });

  it("falls back to ExamHub and shows no record line while none is set", () => {
    footer();
    expect(screen.getByRole("contentinfo")).toHaveTextContent("ExamHub — courses and exams, online and offline");
    expect(screen.queryByRole("link")).toBeNull();
  });
});
