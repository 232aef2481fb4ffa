/** The contract's server messages in every language, loaded after the first paint (see i18n.ts). */
export { MESSAGES as SERVER_MESSAGES } from '@elex/contract';
