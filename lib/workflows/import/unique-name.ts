/**
 * A workflow name no other workflow of the workspace has, named as Duplicate names a copy:
 * `Support`, then `Support (copy)`, `Support (copy 2)`, … The result stays within the 200
 * characters a workflow name may have, shortening the original name to make room.
 */
const MAX_NAME_LENGTH = 200;

export function uniqueWorkflowName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let copy = 1; ; copy += 1) {
    const suffix = copy === 1 ? " (copy)" : ` (copy ${copy})`;
    const candidate = `${name.slice(0, MAX_NAME_LENGTH - suffix.length).trimEnd()}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
