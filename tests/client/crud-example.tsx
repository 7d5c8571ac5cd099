import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { beforeEach, vi } from "vitest";
import { z } from "zod";
import type { AxiosRequestConfig } from "axios";
import { CrudScreen } from "../../src/client/admin/crud/CrudScreen.tsx";
import type { CrudDefinition, CrudRow } from "../../src/client/admin/crud/types.ts";
import { useListViews } from "../../src/client/stores/listViews.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";

/** An example definition (the members screen as the lead may write it), used by the crud tests. */
export const members: CrudDefinition = {
  path: "user/user",
  title: msg`Members`,
  quickSearch: msg`ID, username, nickname`,
  sortable: true,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true, search: "number" },
    { field: "username", label: msg`Username`, sortable: true, search: "text" },
    { field: "mobile", label: msg`Mobile`, hidden: true },
    {
      field: "status",
      label: msg`Status`,
      render: "tag",
      search: "select",
      options: [
        { value: "enable", label: msg`Enabled` },
        { value: "disable", label: msg`Disabled` },
      ],
    },
    { field: "create_time", label: msg`Created`, render: "datetime", sortable: true, search: "datetime" },
  ],
  form: [
    { field: "username", label: msg`Username`, kind: "text" },
    { field: "group_id", label: msg`Group`, kind: "remoteSelect", remote: { path: "user/group", labelField: "name" } },
    { field: "password", label: msg`Password`, kind: "password" },
    { field: "money", label: msg`Balance`, kind: "number" },
    { field: "status", label: msg`Enabled`, kind: "switch", initial: 1 },
    { field: "birthday", label: msg`Birthday`, kind: "datetime" },
  ],
  schema: z.object({
    username: z.string().min(3, "At least 3 characters"),
    password: z.string().min(6, "At least 6 characters"),
  }),
  editSchema: z.object({ username: z.string().min(3, "At least 3 characters") }),
};

export const BASE = "/admin/user/user";

/** Grants the admin these actions of the members screen (as /admin/index/index's rules would). */
export function grant(...actions: string[]): void {
  useNavTabs.setState({ authNode: new Map([[BASE, actions.map((a) => `${BASE}/${a}`)]]) });
}

export const envelope = <T,>(data: T) => ({ code: 1, msg: "", time: 0, data });

/** The query of a request config as plain values. */
export const paramsOf = (config: AxiosRequestConfig) => (config.params ?? {}) as Record<string, unknown>;

export function memberRows(count: number, from = 1): CrudRow[] {
  return Array.from({ length: count }, (_, i) => ({ id: from + i, username: `user${from + i}`, mobile: `1380000${String(from + i).padStart(4, "0")}`, status: i % 2 ? "disable" : "enable", create_time: 1_700_000_000 + i }));
}

// Every test opens its list as on a first visit: the columns and page size another test chose stay with it.
beforeEach(() => useListViews.setState({ views: {} }));

/**
 * The files the page saves (a click on an anchor with `download`), kept here instead of saved
 * (the blob's address is "blob:export"): call it in `beforeEach`; `vi.restoreAllMocks()` undoes it.
 */
export function captureDownloads(): { name: string; href: string }[] {
  const clicked: { name: string; href: string }[] = [];
  URL.createObjectURL = vi.fn(() => "blob:export");
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ name: this.download, href: this.href });
  });
  return clicked;
}

/** A piece of the back office (a dialog) with what it runs in: Lingui and TanStack Query. */
export function renderWith(node: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>{node}</QueryClientProvider>
    </I18nProvider>,
  );
}

export function renderScreen(definition: CrudDefinition = members) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[BASE]}>
          <CrudScreen definition={definition} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

