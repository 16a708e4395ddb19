/**
 * What the canvas benchmark measures inside the page (scripts/bench-canvas.ts): load time, frame
 * rates while panning or zooming, and frame rates while a live run streams to the canvas. The
 * page scripts are source text: tsx would wrap named functions in helpers the page does not have.
 */
import type { Page } from "@playwright/test";

/** A frame slower than this (ms) is a visible stutter: 40 fps or worse for that frame. */
const SLOW_FRAME_MS = 25;

/**
 * Milliseconds from navigation start until the editor shows the opening view, measured inside the
 * page: the first fit has moved the viewport and every node in the DOM is drawn (not waiting to
 * be measured).
 */
export async function measureLoad(page: Page, url: string): Promise<{ ms: number; rendered: number }> {
  await page.goto(url, { waitUntil: "commit" });
  const handle = await page.waitForFunction(
    `(() => {
      const nodes = [...document.querySelectorAll(".react-flow__node")];
      const viewport = document.querySelector(".react-flow__viewport");
      if (nodes.length === 0 || !viewport || viewport.style.transform === "translate(0px, 0px) scale(1)") return null;
      if (nodes.some((node) => getComputedStyle(node).visibility === "hidden")) return null;
      return { ms: performance.now(), rendered: nodes.length };
    })()`,
    undefined,
    { timeout: 60_000, polling: "raf" },
  );
  return (await handle.jsonValue()) as { ms: number; rendered: number };
}

/**
 * Moves the canvas once per frame for `durationMs` and counts the frames in which the viewport's
 * transform changed, and the slow ones. `pan` drags the pane, sweeping left then right so it
 * crosses fresh parts of the graph; `zoom` turns the mouse wheel over the centre, in then out.
 */
const MOTION_SCRIPT = `async (durationMs, kind) => {
  const pane = document.querySelector(".react-flow__pane");
  const viewport = document.querySelector(".react-flow__viewport");
  let transform = viewport.style.transform;
  const box = pane.getBoundingClientRect();
  let x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const mouse = (clientX) => ({ bubbles: true, cancelable: true, clientX, clientY: y, button: 0, buttons: 1, view: window });
  if (kind === "pan") pane.dispatchEvent(new MouseEvent("mousedown", mouse(x)));
  let movingFrames = 0;
  let slowFrames = 0;
  const started = performance.now();
  let last = started;
  await new Promise((resolve) => {
    const step = (now) => {
      // The transform seen now was set by the event dispatched in the previous frame.
      if (viewport.style.transform !== transform) movingFrames += 1;
      transform = viewport.style.transform;
      if (now - last > ${SLOW_FRAME_MS}) slowFrames += 1;
      last = now;
      const firstHalf = (now - started) % 2000 < 1000;
      if (kind === "pan") {
        x += firstHalf ? -12 : 12;
        window.dispatchEvent(new MouseEvent("mousemove", mouse(x)));
      } else {
        pane.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, clientX: x, clientY: y, deltaY: firstHalf ? -8 : 8, deltaMode: 0, view: window }));
      }
      if (now - started < durationMs) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
  if (kind === "pan") window.dispatchEvent(new MouseEvent("mouseup", mouse(x)));
  const seconds = (performance.now() - started) / 1000;
  if (movingFrames === 0) throw new Error("the viewport did not move during the " + kind);
  return { fps: Math.round((movingFrames / seconds) * 10) / 10, slowFrames };
}`;

export interface MotionFigures {
  fps: number;
  slowFrames: number;
}

export async function measureMotion(page: Page, kind: "pan" | "zoom", durationMs: number): Promise<MotionFigures> {
  return page.evaluate(`(${MOTION_SCRIPT})(${durationMs}, "${kind}")`) as Promise<MotionFigures>;
}

/**
 * Waits until the editor shows a block running (the run it discovered has reached the canvas),
 * then counts frames until the console says the run ended or `durationMs` passed. Every frame the
 * browser paints counts: a frame the page spent applying events is a late frame, and lowers the
 * rate. Also reports how many console lines and finished nodes the stream put on screen, so a
 * stalled stream cannot pass for a smooth one.
 */
const LIVE_RUN_SCRIPT = `async (durationMs) => {
  const running = () => document.querySelector('[data-testid^="block-run-"][data-status="running"]');
  const ended = () => document.querySelector('[data-testid="console-event"][data-type="run.completed"], [data-testid="console-event"][data-type="run.failed"], [data-testid="console-event"][data-type="run.cancelled"]');
  const waitStarted = performance.now();
  await new Promise((resolve, reject) => {
    const look = () => {
      if (running()) resolve();
      else if (performance.now() - waitStarted > 60000) reject(new Error("no block of the run showed as running within 60 s"));
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  const linesBefore = document.querySelectorAll('[data-testid="console-event"], [data-testid="console-text"]').length;
  let frames = 0;
  let slowFrames = 0;
  let longestFrameMs = 0;
  const started = performance.now();
  let last = started;
  await new Promise((resolve) => {
    const step = (now) => {
      frames += 1;
      longestFrameMs = Math.max(longestFrameMs, now - last);
      if (now - last > ${SLOW_FRAME_MS}) slowFrames += 1;
      last = now;
      if (now - started >= durationMs || ended()) resolve();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  const seconds = (performance.now() - started) / 1000;
  const lines = document.querySelectorAll('[data-testid="console-event"], [data-testid="console-text"]').length;
  return {
    fps: Math.round((frames / seconds) * 10) / 10,
    slowFrames,
    longestFrameMs: Math.round(longestFrameMs),
    seconds: Math.round(seconds * 10) / 10,
    consoleLinesAdded: lines - linesBefore,
    finishedNodesShown: document.querySelectorAll('[data-testid^="block-run-"][data-status="succeeded"]').length,
  };
}`;

export interface LiveRunFigures extends MotionFigures {
  longestFrameMs: number;
  seconds: number;
  consoleLinesAdded: number;
  finishedNodesShown: number;
}

export async function measureLiveRun(page: Page, durationMs: number): Promise<LiveRunFigures> {
  return page.evaluate(`(${LIVE_RUN_SCRIPT})(${durationMs})`) as Promise<LiveRunFigures>;
}
