"use client";

import { useEffect } from "react";
import { useEditorStoreApi, saveStatus } from "../store";

/** Asks before the tab closes or reloads while changes are not saved yet. */
export function useLeaveGuard() {
  const store = useEditorStoreApi();
  useEffect(() => {
    if (store.getState().readOnly) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (saveStatus(store.getState().save) === "saved") return;
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [store]);
}
