import { Suspense, lazy } from "react";
import { useSearchParams } from "react-router-dom";
import { Spinner } from "../../ui/Spinner.tsx";

const MockTaking = lazy(() => import("./TestTakingPage.tsx"));
const OfficialTaking = lazy(() => import("./OfficialTakingPage.tsx"));

/** `/exam/my_test_detail`: a mock attempt on the device (`?attempt=`) or an official one (`?official=`). */
export default function TestDetailRoute() {
  const [params] = useSearchParams();
  return <Suspense fallback={<Spinner className="mx-auto my-12 size-8" />}>{params.has("official") ? <OfficialTaking /> : <MockTaking />}</Suspense>;
}
