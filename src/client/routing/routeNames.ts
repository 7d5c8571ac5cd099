/** Route names the server may send in a 302 `routeName` (SPEC §4), with their paths. */
export const ROUTE_NAMES: Record<string, string> = {
  userLogin: "/",
  adminLogin: "/admin/login",
  admin: "/admin",
  user: "/user",
  notFound: "/404",
  noPower: "/401",
  courseLesson: "/course/lesson",
  txPlayer: "/player/txPlayer",
  examResult: "/exam/examResult",
  myPractice: "/exam/myPractice",
  myTest: "/exam/myTest",
  myTestDetail: "/exam/my_test_detail",
  examDetail: "/exam/detail",
  myCourse: "/user/course/my_course",
};
