/**
 * The module transform's cheap pre-filter, in a module of its own: the hosts ask it for every module before they
 * know whether they need the transform (or a compiler) at all, so it loads nothing with it.
 */

/** Modules that cannot use tooltype are not analysed at all (a module that does names one of these). */
const MENTIONS_TOOLTYPE = /tooltype|\btool\b|structuredOutput/;

export function mightUseTooltype(code: string): boolean {
  return MENTIONS_TOOLTYPE.test(code);
}
