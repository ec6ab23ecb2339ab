// Package werewolf is Break Room's Werewolf, `werewolf` (breakroom-games §3, rules version
// werewolf-0.1): hidden roles, night kills, day votes. The seed deals the roles (§3.2): wolves,
// a seer, a doctor and villagers. A round is a night, in which every living seat gets one sealed
// prompt in ascending seat order (villagers only sleep, so the prompts never tell who holds a
// power; the wolves' picks, talk and victim go to the pack), then a day: dawn names the night's
// dead with their roles, discussion_rounds open passes of talk, and a sealed vote whose strict
// plurality exiles a seat. The village wins when no wolf is alive, the wolves when they are at
// least as many as the rest; max_rounds without a winner is a draw (§3.5). Three missed deadlines
// in a row eliminate a seat as "left", which forfeits (§3.6).
//
// It implements games.Engine and games.Match on Break Room's wire words: payloads,
// visible_state and legal_actions name 0-based wire seats (house seat − 1, breakroom.WireSeat),
// each event is one match-log line (Event.Type is its type, Event.Payload its own members,
// breakroom.Line writes it), and a prompt's Move is breakroom.MoveOf(round, turn). The pack's
// lines are private to several seats at once (games.Private of every living wolf). Verify
// re-simulates a finished or abandoned match from its log and revealed seed (arena verify-log).
//
// Pure: no goroutine, clock, I/O or randomness but the seed; time enters as the now values.
package werewolf
