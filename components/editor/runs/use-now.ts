"use client";

import { useEffect, useState } from "react";

/** The time now (ms since the epoch), refreshed every `everyMs` while `ticking`: for clocks of a run that goes on. */
export function useNow(ticking: boolean, everyMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [ticking, everyMs]);
  return now;
}
