/** Reachability over the edges drawn so far, to refuse cycles before they are drawn. */
export class EdgeGraph {
  private readonly out = new Map<string, Set<string>>();
  add(source: string, target: string): void {
    this.out.set(source, (this.out.get(source) ?? new Set()).add(target));
  }
  /** Whether a path of edges leads from `from` to `to`. */
  reaches(from: string, to: string): boolean {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === to) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(this.out.get(id) ?? []));
    }
    return false;
  }
}
