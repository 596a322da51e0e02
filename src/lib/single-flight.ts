/** The key every call of a singleFlight task shares: one run at a time, whatever the arguments. */
const ONE_RUN = Symbol('one run');

/**
 * One run of a task at a time: a call made while a run is under way gets that run's promise (its
 * result or its failure) instead of starting another; the first call after it settles starts a new
 * one. For work that must not overlap with itself (two refreshes presenting the same refresh token)
 * or that is pointless twice at once (two fetches of the same list).
 *
 * A call joining a run has its arguments ignored: the run goes on with those of the call that
 * started it. Anything a run must notice meanwhile (a sign-out) is the task's own to check.
 */
export function singleFlight<Args extends unknown[], T>(
  task: (...args: Args) => Promise<T>,
): (...args: Args) => Promise<T> {
  return singleFlightBy(() => ONE_RUN, task);
}

/**
 * One run at a time per key: a call joins the run under way for its key (`keyOf` its arguments), and
 * a call under another key starts its own run beside it. For work that is one per subject (a partner's
 * statistics): a run for one partner must not answer a call made for another.
 */
export function singleFlightBy<Args extends unknown[], T, Key>(
  keyOf: (...args: Args) => Key,
  task: (...args: Args) => Promise<T>,
): (...args: Args) => Promise<T> {
  const running = new Map<Key, Promise<T>>();
  return (...args) => {
    const key = keyOf(...args);
    const joined = running.get(key);
    if (joined) return joined;
    const started = task(...args);
    running.set(key, started);
    // Registered before any caller's own reaction, so the slot is free by the time a caller resumes.
    const release = () => {
      if (running.get(key) === started) running.delete(key);
    };
    started.then(release, release);
    return started;
  };
}
