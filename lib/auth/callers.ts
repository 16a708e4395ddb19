/** Who is calling, for lib/http's endpoints: apart from the index, which also holds the auth endpoints that import lib/http. */
export type { Caller } from "./authenticate";
export type { Member } from "./workspace-access";
