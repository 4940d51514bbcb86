/**
 * `run`'s result, or a failure naming the hang when it takes longer than `limitMs`: for tests in
 * which a fault might leave the agent waiting forever. The limit is far above any real run.
 */
export async function withinLimit<T>(run: Promise<T>, limitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the agent did not finish within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([run, hang]);
  } finally {
    clearTimeout(timer);
  }
}
