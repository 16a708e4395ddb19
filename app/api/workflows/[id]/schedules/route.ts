import { route } from "@/lib/http/route";
import { appScheduleEndpoints } from "@/lib/schedules";

export const dynamic = "force-dynamic";

export const GET = route(appScheduleEndpoints.list);
export const POST = route(appScheduleEndpoints.create);
