import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { CourseDetail, CourseList, Enrolment, MyCourses } from "../../../shared/course/types.ts";
import { request } from "../../api/index.ts";
import { useUserInfo, type UserInfo } from "../../stores/userInfo.ts";

/** Courses per catalogue page. */
export const CATALOGUE_PAGE_SIZE = 12;

export interface CatalogueParams {
  /** 0: every category. */
  categoryId: number;
  keyword: string;
  /** 1-based. */
  page: number;
}

/** The catalogue's filter from the URL query (`?category=&keyword=&page=`). */
export function catalogueParams(params: URLSearchParams): CatalogueParams {
  const categoryId = Number(params.get("category"));
  const page = Number(params.get("page"));
  return {
    categoryId: Number.isSafeInteger(categoryId) && categoryId > 0 ? categoryId : 0,
    keyword: (params.get("keyword") ?? "").trim().slice(0, 100),
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}

/** Query-key factory and fetchers of the course screens (`/api/course/*`, shared/course/types.ts). */
export const courseQueries = {
  all: () => ["course"] as const,
  list: ({ categoryId, keyword, page }: CatalogueParams) =>
    queryOptions({
      queryKey: [...courseQueries.all(), "list", { categoryId, keyword, page }] as const,
      queryFn: async ({ signal }) =>
        (
          await request<CourseList>({
            url: "/api/course/list",
            method: "get",
            params: { ...(categoryId > 0 ? { categoryId } : {}), ...(keyword ? { keyword } : {}), page, limit: CATALOGUE_PAGE_SIZE },
            signal,
          })
        ).data,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...courseQueries.all(), "detail", id] as const,
      queryFn: async ({ signal }) => (await request<CourseDetail>({ url: "/api/course/detail", method: "get", params: { id }, signal })).data,
      // Fresh for a few seconds: the route's loader asks for it as the page opens
      // (app/prefetch.ts), and a screen that mounts after the answer came does not ask again.
      staleTime: 5_000,
    }),
  my: () =>
    queryOptions({
      queryKey: [...courseQueries.all(), "my"] as const,
      queryFn: async ({ signal }) => (await request<MyCourses>({ url: "/api/course/my", method: "get", signal })).data,
    }),
};

/** Enrols the member in a free course. Failures reject (the HTTP client has shown the message). */
export async function enrolCourse(courseId: number): Promise<Enrolment> {
  return (await request<{ enrolment: Enrolment }>({ url: "/api/course/enrol", method: "post", data: { courseId } }, { showSuccessMessage: true })).data.enrolment;
}

/**
 * Buys a paid course with the member's balance at the price the member was shown (cents). Answers
 * the enrolment and the new balance (cents), which the member info takes at once.
 */
export async function buyCourse(courseId: number, price: number): Promise<{ enrolment: Enrolment; money: number }> {
  const data = (await request<{ enrolment: Enrolment; money: number }>({ url: "/api/course/buy", method: "post", data: { courseId, price } }, { showSuccessMessage: true })).data;
  if (typeof data.money === "number" && Number.isFinite(data.money)) {
    useUserInfo.getState().dataFill({ money: (data.money / 100).toFixed(2) });
  }
  return data;
}

/** Refreshes the stored member info (balance, points) from `GET /api/account/profile`; quiet on failure. */
export async function refreshUserInfo(): Promise<void> {
  try {
    const res = await request<{ userInfo: Partial<UserInfo> }>(
      { url: "/api/account/profile", method: "get" },
      { showErrorMessage: false, showCodeMessage: false },
    );
    const { token: _t, refresh_token: _r, ...info } = res.data.userInfo ?? {};
    if (info.id === useUserInfo.getState().id) useUserInfo.getState().dataFill(info);
  } catch {
    // Offline or signed out: the stored values stay.
  }
}

/** The path from a root of the category tree down to the node `id` (empty when there is none). */
export function findCategoryPath<T extends { id: number; children: T[] }>(nodes: T[], id: number): T[] {
  for (const node of nodes) {
    if (node.id === id) return [node];
    const below = findCategoryPath(node.children, id);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}
