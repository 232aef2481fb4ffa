import { LOGO_UPLOAD, type MessageKey } from '@elex/contract';

/**
 * Uploaded logos (docs/operator-console.md, "Logos"). The type is read from the content, never from
 * the file name: a PNG named logo.svg is stored and served as a PNG, and a file that is none of
 * SVG, PNG or WebP is refused. An SVG is parsed with a strict XML parser and refused unless every
 * element is a static drawing element of the SVG namespace: no script, no event handler, no link or
 * reference outside the file, no DOCTYPE (entities), no foreign content. Served files also carry a
 * CSP that forbids scripts (media.routes.ts), in case a browser opens one directly.
 */

export type LogoType = (typeof LOGO_UPLOAD.contentTypes)[number];

export const LOGO_EXTENSIONS: Record<LogoType, string> = {
  'image/svg+xml': 'svg',
  'image/png': 'png',
  'image/webp': 'webp',
};

export class LogoRefusedError extends Error {
  constructor(readonly messageKey: MessageKey) {
    super(messageKey);
    this.name = 'LogoRefusedError';
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function isPng(bytes: Buffer): boolean {
  // The signature, then the IHDR chunk (length 13) with a non-zero width and height.
  return (
    bytes.length > 33 &&
    bytes.subarray(0, 8).equals(PNG_SIGNATURE) &&
    bytes.readUInt32BE(8) === 13 &&
    bytes.toString('latin1', 12, 16) === 'IHDR' &&
    bytes.readUInt32BE(16) > 0 &&
    bytes.readUInt32BE(20) > 0
  );
}

function isWebp(bytes: Buffer): boolean {
  // RIFF <size> WEBP, then a VP8, VP8L or VP8X chunk; the RIFF size must fit the file.
  return (
    bytes.length > 20 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP' &&
    ['VP8 ', 'VP8L', 'VP8X'].includes(bytes.toString('latin1', 12, 16)) &&
    bytes.readUInt32LE(4) + 8 <= bytes.length
  );
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Static drawing only: no script, foreignObject, image, a, animate, set, iframe ... */
const SVG_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'style',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComposite',
  'feDropShadow',
  'feFlood',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
]);

/** A reference inside the file (`#id`) is fine; anything else could fetch or run something. */
function isLocalReference(value: string): boolean {
  return /^#[A-Za-z_][\w.-]*$/.test(value.trim());
}

/** CSS in a style element or attribute: url() only to ids in the file, no @import, no scripts. */
function isSafeCss(css: string): boolean {
  // CSS escapes (\75 rl) could spell url( or @import past the checks: no escapes at all.
  if (css.includes('\\')) return false;
  const text = css.toLowerCase();
  if (/@import|javascript:|expression\(|behavior\s*:|-moz-binding/.test(text)) return false;
  // Every url(...) must point at an id in the file: remove those, and no url( may remain.
  return !/url\s*\(/.test(text.replace(/url\(\s*(['"]?)#[\w.-]+\1\s*\)/g, ''));
}

async function checkSvg(text: string): Promise<void> {
  // The XML parser is loaded on the first SVG upload, not at start (docs/decisions.md, "Cold start").
  const { SaxesParser } = await import('saxes');
  const parser = new SaxesParser({ xmlns: true, position: false });
  let problem: string | undefined;
  let depth = 0;
  let rootSeen = false;
  let inStyle = false;
  const refuse = (why: string) => {
    problem ??= why;
  };
  parser.on('doctype', () => refuse('doctype'));
  parser.on('processinginstruction', () => refuse('processing instruction'));
  parser.on('opentag', (tag) => {
    if (depth === 0) {
      if (rootSeen) refuse('second root');
      rootSeen = true;
      if (tag.local !== 'svg') refuse('root is not svg');
    }
    depth += 1;
    if (tag.uri !== SVG_NS || !SVG_ELEMENTS.has(tag.local)) refuse(`element ${tag.name}`);
    if (tag.local === 'style') inStyle = true;
    for (const attribute of Object.values(tag.attributes)) {
      const name = attribute.local.toLowerCase();
      const value = attribute.value;
      if (attribute.uri === XMLNS_NS || attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      if (attribute.uri && ![XLINK_NS, XML_NS].includes(attribute.uri)) refuse(`attribute ${attribute.name}`);
      if (name.startsWith('on')) refuse(`handler ${attribute.name}`);
      if (name === 'href' && !isLocalReference(value)) refuse(`link ${value}`);
      if (/(javascript|vbscript|data)\s*:/i.test(value)) refuse(`value ${value}`);
      if (/url\s*\(/i.test(value) || name === 'style') {
        if (!isSafeCss(value)) refuse(`css ${value}`);
      }
    }
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    if (tag.local === 'style') inStyle = false;
  });
  parser.on('text', (text) => {
    if (inStyle && !isSafeCss(text)) refuse('style content');
  });
  parser.on('cdata', (text) => {
    if (!inStyle || !isSafeCss(text)) refuse('cdata');
  });
  try {
    parser.write(text).close();
  } catch {
    refuse('not well-formed');
  }
  if (!rootSeen) refuse('no svg root');
  if (problem) throw new LogoRefusedError('logoUnsafe');
}

/** A text file that looks like SVG: an optional BOM, XML declaration or comments, then `<svg`. */
function looksLikeSvg(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const start = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .trimStart();
  // A DOCTYPE before the root is still SVG-shaped: the strict check refuses it with the right reason.
  return /^<(svg[\s>/]|!DOCTYPE\s+svg)/i.test(start) ? text : undefined;
}

/** The logo's real type from its bytes, after the size limit; rejects with LogoRefusedError. */
export async function inspectLogo(bytes: Buffer): Promise<{ contentType: LogoType; extension: string }> {
  if (bytes.length === 0) throw new LogoRefusedError('logoTypeRefused');
  if (bytes.length > LOGO_UPLOAD.maxBytes) throw new LogoRefusedError('logoTooLarge');
  if (isPng(bytes)) return { contentType: 'image/png', extension: 'png' };
  if (isWebp(bytes)) return { contentType: 'image/webp', extension: 'webp' };
  const svg = looksLikeSvg(bytes);
  if (svg === undefined) throw new LogoRefusedError('logoTypeRefused');
  await checkSvg(svg);
  return { contentType: 'image/svg+xml', extension: 'svg' };
}
