// The page's side of SCORM 1.2: finds the LMS's API object (`window.API` in
// this window, a parent frame or the window that opened it), starts the
// session, and when the page is left (after the app has saved the last
// change) reports the time spent, commits and finishes. What to report
// (status, suspend data) is decided in Rust (src/classroom.rs). With no LMS
// every function here does nothing.

let api = null;
let started = 0;

/** The SCORM 1.2 API of this window or one around it, or null. */
function findApi() {
  for (const start of [window, window.opener]) {
    // The standard search goes up at most seven frames.
    for (let w = start, depth = 0; w && depth < 8; depth += 1) {
      try {
        if (w.API) return w.API;
      } catch {
        // A frame of another origin keeps its API out of reach; the frames
        // above it may still be the LMS's.
      }
      if (w.parent === w) break;
      w = w.parent;
    }
  }
  return null;
}

/** `HHHH:MM:SS.SS`, SCORM 1.2's CMITimespan. */
function timespan(milliseconds) {
  const centiseconds = Math.round(milliseconds / 10);
  const hours = Math.min(Math.floor(centiseconds / 360000), 9999);
  const minutes = Math.floor(centiseconds / 6000) % 60;
  const seconds = (centiseconds % 6000) / 100;
  const pad = (n, width) => String(n).padStart(width, '0');
  return `${pad(hours, 4)}:${pad(minutes, 2)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/** Starts a session with the LMS, if there is one; true if there is. */
export function connect() {
  const found = findApi();
  if (!found || String(found.LMSInitialize('')) !== 'true') return false;
  api = found;
  started = Date.now();
  return true;
}

/** Ends the session: the time spent, then commit and finish. */
export function finish() {
  if (!api) return;
  api.LMSSetValue('cmi.core.session_time', timespan(Date.now() - started));
  // Suspended, not done: the next launch resumes from the suspend data.
  api.LMSSetValue('cmi.core.exit', 'suspend');
  api.LMSCommit('');
  api.LMSFinish('');
  api = null;
}

/** A value of the LMS's data model, or '' with no LMS. */
export function read(name) {
  return api ? String(api.LMSGetValue(name) ?? '') : '';
}

/**
 * Sets a value of the LMS's data model; true if the LMS took it. The LMS
 * stores it on the next commit: Moodle's is a request to its server, so the
 * app commits when something is decided (`commit`) and when the learner
 * leaves, not on every change.
 */
export function write(name, value) {
  return api !== null && String(api.LMSSetValue(name, value)) === 'true';
}

/** Has the LMS store what was written. */
export function commit() {
  api?.LMSCommit('');
}
