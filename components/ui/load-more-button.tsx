"use client";

/** What the button needs of a paged query (React Query's useInfiniteQuery answers it). */
export interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

/** Fetches a list's next page; gone once the last page is shown. */
export function LoadMoreButton({
  pages,
  label = "Load more",
  testId,
}: {
  pages: MorePages;
  label?: string;
  testId?: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <button
      type="button"
      className="btn-secondary"
      data-testid={testId}
      disabled={pages.isFetchingNextPage}
      onClick={() => void pages.fetchNextPage()}
    >
      {pages.isFetchingNextPage ? "Loading…" : label}
    </button>
  );
}
