// The sections of the catalog the shell and the home page show, named one by one: Vite exports a JSON
// file's top-level keys by name, so the other sections stay out of this module (issue 14). The three
// languages' files list the same sections; first-paint.test.tsx fails when a shown key is missing.
import {
  brand,
  cashback,
  chunkError,
  common,
  exchanges,
  footer,
  home,
  homeMember,
  homePublic,
  language,
  later,
  nav,
  notFound,
  pages,
} from '../../../locales/ko.json';

export default {
  brand,
  cashback,
  chunkError,
  common,
  exchanges,
  footer,
  home,
  homeMember,
  homePublic,
  language,
  later,
  nav,
  notFound,
  pages,
};
