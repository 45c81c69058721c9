// One turn of the event loop between batches of the engine's own work. The embedded store works
// synchronously inside its async methods (better-sqlite3, node:sqlite), so a materializer step or a claim
// loop of many batches would otherwise run from its first batch to its last without letting a timer, a
// socket or an HTTP request of this process in: at a million schedules on SQLite, a step writing a minute
// boundary's runs held the event loop for about a second. It never waits for time (that is the clock's) and
// costs nothing a store that does I/O would notice.

/** Resolves after the event loop has run the timers and I/O callbacks that were ready. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
