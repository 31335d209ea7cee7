/**
 * A task run again and again (following what other processes change) whose failure is reported
 * once, with `report`, until it succeeds again: an outage of minutes logs one line, not one a
 * second.
 *
 * @example
 * overlay.onChange(reportingOnce(() => curator.sync(), (error) => log.warn(`not applied yet: ${error.message}`)));
 */
export function reportingOnce(task: () => Promise<void>, report: (error: Error) => void): () => void {
  let reported = false;
  return () =>
    void task().then(
      () => (reported = false),
      (error: Error) => {
        if (!reported) report(error);
        reported = true;
      },
    );
}
