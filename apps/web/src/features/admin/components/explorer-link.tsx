/** A hash or address linked to its Polygonscan page when there is one (Polygon mainnet), else as text. */
export function ExplorerLink({ url, text }: { url: string | null; text: string }) {
  if (!url) return text;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      {text}
    </a>
  );
}
