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
  let running: Promise<T> | null = null;
  return (...args) => {
    if (running) return running;
    const started = task(...args);
    running = started;
    // Registered before any caller's own reaction, so the slot is free by the time a caller resumes.
    const release = () => {
      if (running === started) running = null;
    };
    started.then(release, release);
    return started;
  };
}
