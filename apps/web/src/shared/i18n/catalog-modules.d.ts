/** A language's whole catalog as its own chunk (`?full` makes it a module apart from the first-paint sections). */
declare module '*.json?full' {
  const strings: Record<string, unknown>;
  export default strings;
}
