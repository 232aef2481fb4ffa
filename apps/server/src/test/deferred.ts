/**
 * A promise settled from outside: the tests that stage a race use one to say "the other side now
 * holds its lock" and another to let it go. (Promise.withResolvers arrives with Node 22.)
 */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
