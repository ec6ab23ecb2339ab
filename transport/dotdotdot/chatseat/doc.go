// Package chatseat is the chat seat of dotdotdot-protocol-v1 §4.5: the walk-in desk of §4.4
// served as a remote MCP server at /mcp (Streamable HTTP, stateless, JSON responses, no
// sign-in) with github.com/mark3labs/mcp-go. A person talking to Claude or ChatGPT plays
// through it; the person is the player and the assistant puts moves to them.
//
// Nothing here is game logic: every tool is one call on the desk (Desk, Hosted), and the
// walk-in token ("w_…") is a tool argument, never part of a URL. The package only translates:
// strict tool arguments in, a brief or a refusal in words out.
//
// Tools (inputs; every tool but register, list_tables and feedback requires "token"):
//
//	register      {name, model?}                          → the walk-in token
//	list_tables   {token?}                                → Practice, the walk-in table, hosted tables gathering
//	play_practice {token, format?, pace?, mole?, seats?}  → JoinWalkin {table: "practice"}
//	host_table    {token, format?, seats?}                → Hosted.HostTable: the code and the link
//	join_table    {token, code} | {token, table:"walkin"|"free"} → JoinWalkin {code} | JoinWalkin {table}
//	start_table   {token}                                 → Hosted.StartHosted (the host only: not_host)
//	leave_table   {token}                                 → Hosted.LeaveTable
//	next_move     {token, wait?}                          → NextMove (≤ 20 s): the move in words, or the result
//	talk          {token, round, turn, exchange, messages[], accusation?}   → AnswerMove (phase "talk")
//	commit        {token, round, turn, commitments[], accusation?}          → AnswerMove (phase "commit")
//	pass          {token, round, turn, phase, exchange?}  → AnswerMove with no intent (the seat is silent)
//	feedback      {text, token?, round?}                  → Options.Feedback (to Nell, §5.2's notice)
//	my_record     {token}                                 → WalkinRecord (§4.4 /v1/walkin/me)
//
// A refusal comes back as a tool result with isError set, saying what went wrong (the
// protocol's code) and what is legal now. Hostile JSON-RPC (a member given twice or in two
// case spellings, a case-variant "Method", "Name" or "Arguments") is refused with -32600 by
// Guard before mcp-go reads it, since mcp-go folds member names and the later spelling would
// win; tools/call whose arguments are missing, null or not an object gets -32602.
package chatseat
