// Package adjudicate resolves Diplomacy phases on the standard map (breakroom-games §6.7–§6.9):
// movement (Movement), retreats (RetreatOptions, Retreats) and adjustments (Adjust), each a pure
// function of a position and the orders given, usable without the rest of the game.
//
// Movement follows Kruijswijk's partial-information algorithm ("The Math of Adjudication", DATC
// appendix): every move, support and convoy is a yes/no decision resolved from the others by
// guessing when a decision depends on itself. A cycle with exactly one consistent outcome takes
// it; a cycle with none or two takes the backup rule: circular movement succeeds, and a cycle
// through a convoy is a convoy paradox settled by the Szykman rule (the convoys in it fail, so the
// convoyed armies neither move nor cut support; DATC 4.A.2).
//
// Where DATC v3.1 offers options the preferred ones apply (§6.7): 4.A.2 Szykman; 4.A.3 an army
// ordered to an adjacent province is convoyed only when it says "via convoy" or a fleet of its own
// power on a possible route convoys it, and then it has no land fallback; 4.B.2 an omitted coast
// that only one coast fits is followed; 4.D.9 hold support to a unit in civil disorder counts;
// 4.E.1 an order void in the position (no such unit, wrong unit type, a support or convoy that
// names nothing on the board) is reported void and the unit holds. Adjustments remove by the 2023
// civil-disorder rule (4.D.8).
//
// Pure: no I/O, clock or randomness. The result depends only on the position and the set of
// orders, never on the order in which they are listed.
package adjudicate
