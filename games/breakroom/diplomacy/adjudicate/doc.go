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
// Where DATC offers options the preferred ones apply (§6.7): 4.A.2 Szykman; 4.A.3 an army ordered
// to an adjacent province is convoyed only when it says "via convoy" or a fleet of its own power
// gives a legal convoy order for it, and then it has no land fallback; 4.B.2 an omitted coast that
// only one coast fits is followed; 4.D.9 hold support to a unit in civil disorder counts; 4.E.1 an
// order void in the position is reported void and the unit holds: no such unit or the wrong type,
// a support or convoy that fits no order, a convoyed move with no chain of fleets on the board, a
// convoy by a fleet on no minimal route (6.G.19), a fleet's support of a convoy only it could carry
// (6.D.31). Adjustments take the first legal orders and remove by the 2023 civil-disorder rule
// (4.D.4, 4.D.6, 4.D.8).
//
// Pure: no I/O, clock or randomness. The result depends only on the position and the set of
// orders, never on the order in which they are listed.
package adjudicate
