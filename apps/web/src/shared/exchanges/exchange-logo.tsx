/**
 * An exchange's mark: our own lettering in the brand colour, served from /logos (never a copy of a
 * trademark). Beside the exchange's written name the image is decorative, so it says nothing twice.
 */
export function ExchangeLogo({
  logo,
  name,
  size = 32,
  decorative = false,
}: {
  logo: string;
  name: string;
  size?: number;
  decorative?: boolean;
}) {
  return (
    <img
      className="exchange-logo"
      src={logo}
      alt={decorative ? '' : name}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  );
}
