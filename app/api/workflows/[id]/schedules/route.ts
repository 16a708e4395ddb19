import { route } from "@/lib/http/route";
import { appScheduleEndpoints } from "@/lib/schedules/app-schedule-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appScheduleEndpoints.list);
export const POST = route(appScheduleEndpoints.create);
