// The sections of the catalog the shell and the home page show (FIRST_PAINT_SECTIONS): Vite exports a
// JSON file's top-level keys by name, so the others stay out of this module (issue 14).
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
};
