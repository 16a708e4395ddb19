import { route } from "@/lib/http/route";
import { appScheduleEndpoints } from "@/lib/schedules";

export const dynamic = "force-dynamic";

export const PATCH = route(appScheduleEndpoints.update);
export const DELETE = route(appScheduleEndpoints.remove);
