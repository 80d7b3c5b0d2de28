/* The page's shared state, and the registry through which modules reach each mode.
 *
 * Each mode module registers an object with some of: enter() (its tab was opened), reset()
 * (new rules), history() (the clues the hints are about), composed() (the guess being
 * written, for the cut), use(code) (a hint's guess was picked), over() (no more guesses to
 * suggest). The hints panel asks the current mode through `current()`. */

export const S = {
  presets: [],
  rules: null, // the selected preset from /api/rules
  notation: null, // its Notation
  mode: "play",
};

export const modes = {};

export const current = () => modes[S.mode] || {};

/** The name of a preset for people: its title up to the colon ("Mastermind"). */
export const shortTitle = (p) => (p.title || p.name).split(":")[0].trim();

/** The notation of the selected rules. */
export const N = () => S.notation;
