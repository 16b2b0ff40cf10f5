/**
 * Stand-ins for the parameters of NLTK's trained English Punkt model (which is data we cannot ship): common
 * English abbreviations (types without their final period) and words seen lower-case mid-sentence.
 */

/** Abbreviation types: a period after one of these is not a sentence break (unless the next word starts one). */
export const ENGLISH_ABBREVIATIONS = new Set(
  (
    "mr mrs ms dr prof st jr sr sen rep gov gen col lt sgt capt cmdr adm maj rev messrs mt ft " +
    "co corp inc ltd bros cos assn dept univ vs v no nos pp vol vols yr yrs approx est " +
    "e.g i.e a.m p.m u.s u.k u.n u.s.a d.c n.y n.j n.c n.h n.m s.c r.i l.a " +
    "jan feb mar apr jun jul aug sep sept oct nov dec " +
    "ala ariz ark calif colo conn del fla ga ill ind kan ky la md mass mich minn miss mo mont neb nev okla ore pa tenn tex va vt wash wis wyo"
  ).split(" "),
);

/**
 * Word types whose orthographic context is "lower case inside a sentence, upper case at its start": a
 * capitalised one of these after an abbreviation or initial starts a new sentence.
 */
export const LOWERCASE_CONTEXT_WORDS = new Set(
  (
    "a an the this that these those it its he she they we you i his her their our your my there here " +
    "but and or so yet however then thus also in on at by for from with as if when while after before " +
    "what which who how why where is are was were be been has have had do does did can could will would " +
    "should may might must not no all some many most each every one two three first next finally"
  ).split(" "),
);
